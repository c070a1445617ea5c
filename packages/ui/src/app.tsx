import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { GatewayClient, type GatewayError } from './api/gateway-client.js';
import { forgetKey, storedKey, storeKey } from './api/key-storage.js';
import { PAGES, routeHref, useRoute } from './hash-route.js';
import { useLiveGateway } from './live/live-gateway.js';
import { ActivityPage } from './pages/activity-page.js';
import { PreflightPage } from './pages/preflight-page.js';
import { ServersPage } from './pages/servers-page.js';
import { SignIn } from './pages/sign-in.js';
import { TokensPage } from './pages/tokens-page.js';
import { ToolsPage } from './pages/tools-page.js';

/** Signed in (a key in this tab's sessionStorage) or the sign-in form. */
export function App() {
  const [key, setKey] = useState(storedKey);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const signOut = useCallback((why?: string) => {
    forgetKey();
    setKey(undefined);
    setNotice(why);
  }, []);
  if (key === undefined) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(accepted) => {
          storeKey(accepted);
          setNotice(undefined);
          setKey(accepted);
        }}
      />
    );
  }
  return <Shell adminKey={key} signOut={signOut} />;
}

function Shell({ adminKey, signOut }: { adminKey: string; signOut: (why?: string) => void }) {
  const client = useMemo(() => new GatewayClient(adminKey), [adminKey]);
  const route = useRoute();
  const onRefused = useCallback((error: GatewayError) => signOut(`Signed out: the gateway refused the key (${error.message}).`), [signOut]);
  const gateway = useLiveGateway(client, onRefused);
  const title = PAGES.find((page) => page.name === route.page)?.title ?? 'Servers';
  const heading = useRef<HTMLHeadingElement>(null);
  // A layout effect, so the focus moves as the page is shown: a plain effect ran a paint later and took
  // the focus back from whatever a quick person (or a slow machine) had focused in between.
  useLayoutEffect(() => {
    document.title = `${title} · mcpproxy operator`;
    // A new page: its heading takes the focus, so keyboard and screen-reader users start there.
    heading.current?.focus();
  }, [title]);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="bar">
        <span class="brand">mcpproxy operator</span>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map((page) => (
              <li key={page.name}>
                <a href={routeHref(page.name)} aria-current={page.name === route.page ? 'page' : undefined}>
                  {page.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class={gateway.live ? 'live on' : 'live'} role="status">
          {gateway.live ? 'Live' : 'Connecting…'}
        </span>
        <button type="button" class="quiet" onClick={() => signOut('Signed out.')}>
          Sign out
        </button>
      </header>
      <main id="main">
        <h1 tabIndex={-1} ref={heading}>
          {title}
        </h1>
        {gateway.loadError === undefined ? null : (
          <p class="error" role="alert">
            Could not read the gateway state: {gateway.loadError}
          </p>
        )}
        {route.page === 'servers' && <ServersPage client={client} gateway={gateway} />}
        {route.page === 'tools' && <ToolsPage client={client} gateway={gateway} reviewing={route.detail} />}
        {route.page === 'preflight' && <PreflightPage client={client} />}
        {route.page === 'activity' && <ActivityPage client={client} servers={gateway.servers} />}
        {route.page === 'tokens' && <TokensPage client={client} servers={gateway.servers} />}
      </main>
    </>
  );
}
