// What every browser test does first: open /ui/ and sign in with a key, as a person would.
import type { Page } from 'playwright-core';

export async function openSignIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/ui/`);
  await page.getByLabel('Admin API key').waitFor();
}

export async function signIn(page: Page, origin: string, key: string): Promise<void> {
  await openSignIn(page, origin);
  await page.getByLabel('Admin API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
}

/** Follows a link of the page bar, as a click would. */
export async function openPage(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}
