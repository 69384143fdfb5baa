import type { Locator, Page } from 'playwright-core';

/**
 * Screenshots are for a person to look at what a test drove (their folders are under /tmp/shots-*); nothing asserts
 * on them. A full-page PNG costs the browser a second of CPU on a busy machine, so CI, where nobody looks, takes
 * none unless E2E_SCREENSHOTS=1 asks. (A failed test's pages are still saved, by test/e2e/support/session.ts.)
 */
const keep = process.env.CI !== 'true' || process.env.E2E_SCREENSHOTS === '1';

/** Saves a screenshot of the page (or of one element) for review, where screenshots are kept. */
export async function keepScreenshot(target: Page | Locator, options: { path: string; fullPage?: boolean }): Promise<void> {
  if (!keep) return;
  await target.screenshot(options);
}
