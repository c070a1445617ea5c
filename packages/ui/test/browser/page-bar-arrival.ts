// The moment the signed-in page bar first appears, before any of the app's effects have run: a slow
// machine gives a person time to act there, so the navigation tests act there every time.
import type { Page } from 'playwright-core';

/**
 * When the page bar appears on this page, records where the focus is (read it with
 * `focusedOnArrival`) and, with `goTo`, changes the address to that route at once.
 */
export async function atPageBarArrival(page: Page, options: { readonly goTo?: string } = {}): Promise<void> {
  await page.addInitScript((goTo: string | null) => {
    new MutationObserver((_records, observer) => {
      if (document.querySelector('nav[aria-label="Pages"]') === null) return;
      observer.disconnect();
      (globalThis as unknown as { focusedOnArrival: string }).focusedOnArrival = document.activeElement?.tagName ?? '';
      if (goTo !== null) location.hash = goTo;
    }).observe(document, { childList: true, subtree: true });
  }, options.goTo ?? null);
}

/** The tag name of the element that had the focus when the page bar appeared (undefined: it never did). */
export function focusedOnArrival(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (globalThis as unknown as { focusedOnArrival?: string }).focusedOnArrival);
}
