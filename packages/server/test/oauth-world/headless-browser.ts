// The "browser" of a login: follows the authorization URL through the authorization server's pages
// (keeping their cookies, as a browser does) until it is sent to the redirect URI, which it returns,
// or also visits (the loopback callback of `mcpproxy auth login`). Plain HTTP, no browser engine: the
// authorization server's interaction consents on its own.
export interface BrowserVisit {
  /** The redirect URI with the authorization server's query (code, state, iss, or error). */
  readonly callback: URL;
  /** What the callback answered, when visited. */
  readonly callbackStatus?: number;
  readonly callbackBody?: string;
}

export async function followAuthorization(authorizationUrl: string, options: { readonly visitCallback?: boolean; readonly redirectPrefix: string }): Promise<BrowserVisit> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.href.startsWith(options.redirectPrefix)) {
      if (options.visitCallback !== true) return { callback: url };
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(60_000) });
      return { callback: url, callbackStatus: response.status, callbackBody: await response.text() };
    }
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookies.size === 0 ? {} : { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      signal: AbortSignal.timeout(30_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      if (at > 0) cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    const location = response.headers.get('location');
    await response.text();
    if (location === null) throw new Error(`the authorization server answered ${response.status} at ${url.pathname} without a redirect`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects before the callback');
}
