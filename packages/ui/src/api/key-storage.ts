// The admin API key lives in this tab's sessionStorage only: no cookie (so no CSRF surface), gone
// when the tab closes, and never in a URL.
const KEY_ITEM = 'mcpproxy.adminKey';

export function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(KEY_ITEM) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY_ITEM);
}
