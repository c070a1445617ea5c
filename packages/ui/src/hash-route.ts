import { useLayoutEffect, useState } from 'preact/hooks';

export type PageName = 'servers' | 'tools' | 'preflight' | 'activity' | 'tokens';
export const PAGES: readonly { readonly name: PageName; readonly title: string }[] = [
  { name: 'servers', title: 'Servers' },
  { name: 'tools', title: 'Tools' },
  { name: 'preflight', title: 'Preflight' },
  { name: 'activity', title: 'Activity' },
  { name: 'tokens', title: 'Tokens' },
];

export interface Route {
  readonly page: PageName;
  /** What follows the page name: the tool under review on the Tools page. */
  readonly detail?: string;
}

/** The page in the URL's fragment (#/tools/demo%3Aecho): it names a page, never a credential. */
export function parseRoute(hash: string): Route {
  const [name = '', ...rest] = hash.replace(/^#\/?/, '').split('/');
  const page = PAGES.find((candidate) => candidate.name === name)?.name ?? 'servers';
  const detail = rest.length === 0 ? undefined : safeDecode(rest.join('/'));
  return detail === undefined || detail === '' ? { page } : { page, detail };
}

export function routeHref(page: PageName, detail?: string): string {
  return detail === undefined ? `#/${page}` : `#/${page}/${encodeURIComponent(detail)}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  // A layout effect subscribes before the browser runs anything else; a plain effect waits for a paint,
  // and a link followed in between (a person quick on a slow machine) was never shown. The address is
  // read once more on subscribing, in case it changed between the first render and this commit.
  useLayoutEffect(() => {
    const follow = () => setRoute((shown) => routeToShow(shown, parseRoute(location.hash)));
    addEventListener('hashchange', follow);
    follow();
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}

/** The route shown unless the address names another one (a new object would render the page again). */
function routeToShow(shown: Route, named: Route): Route {
  return shown.page === named.page && shown.detail === named.detail ? shown : named;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
