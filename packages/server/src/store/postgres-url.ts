/**
 * The connection URL as messages may show it: scheme, user, host, port and database, never the
 * password or the query (which may carry one too, or a client key's path). A URL that does not
 * parse is shown as its scheme only.
 */
export function redactedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? '';
    return `${scheme}//…`;
  }
  const user = parsed.username === '' ? '' : `${decodeURIComponent(parsed.username)}@`;
  return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
}
