import type { FetchLike } from '@modelcontextprotocol/client';

export interface UnauthorizedCapture {
  /** The fetch the HTTP transport uses: the global fetch, watched. */
  readonly fetch: FetchLike;
  /** The last 401 seen, unless a successful answer came after it (with its WWW-Authenticate, kept for the login remediation). */
  last(): { readonly wwwAuthenticate: string | undefined } | undefined;
}

/**
 * Watches every HTTP exchange of one upstream connection for a 401. The SDK surfaces an
 * unauthorized answer as an error whose shape depends on whether an auth provider is set; the
 * response itself is the one reliable witness, and it carries the WWW-Authenticate header.
 */
export function captureUnauthorized(): UnauthorizedCapture {
  let seen: { wwwAuthenticate: string | undefined } | undefined;
  const watched: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 401) seen = { wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined };
    // A 401 the transport got past (a refreshed OAuth token) no longer says why a later failure happened.
    else if (response.ok) seen = undefined;
    return response;
  };
  return { fetch: watched, last: () => seen };
}
