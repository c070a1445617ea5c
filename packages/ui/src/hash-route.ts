import { useEffect, useState } from 'preact/hooks';

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
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
