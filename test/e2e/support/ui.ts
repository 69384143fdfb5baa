import type { Page } from 'playwright-core';

/** The toasts on screen: items of Radix's notification region. */
export function toasts(page: Page) {
  return page.getByRole('region', { name: /Notifications/ }).getByRole('listitem');
}

/** Waits for the toast on screen to read `title` (and `description`, when given). */
export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  const toast = toasts(page).filter({ hasText: title });
  await toast.waitFor();
  if (description !== undefined) await toast.filter({ hasText: description }).waitFor();
}

/** Holds every request to `path` for `ms` before sending it on, so a pending state stays on screen long enough to see. */
export async function slowDown(page: Page, path: string, ms = 600): Promise<void> {
  await page.route(`**${path}`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

export type Account = { first_name: string; last_name: string; email: string; phone: string; password: string };

let accountCount = 0;

/** A fresh, valid registration (SPEC.md §5). */
export function newAccount(firstName = 'Ada'): Account {
  accountCount += 1;
  return {
    first_name: firstName,
    last_name: 'Lovelace',
    email: `${firstName.toLowerCase()}.${Date.now()}.${accountCount}@example.com`,
    phone: '5551234567',
    password: 'Analytical1',
  };
}

/**
 * Registers `account` through the API in the page's browser context, so the page is signed in as it,
 * the way a browser would (cookies in the context's jar, Origin header on the write).
 */
export async function registerThroughApi(page: Page, baseUrl: string, account: Account): Promise<void> {
  const response = await page.request.post('/api/agscard/register', {
    headers: { Origin: baseUrl },
    data: { ...account, password_confirmation: account.password, is_marketing_notifications_enabled: false },
  });
  if (!response.ok()) throw new Error(`registration failed: ${response.status()} ${await response.text()}`);
}
