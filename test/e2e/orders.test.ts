import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// The order wizard from a graded card to a placed order, as a person does it, on a desktop and on a 390×844 phone:
// a new address, a declined card then a good one, the review's reasons, the order in the order history.

const session = useBrowserSession();
const shots = '/tmp/shots-orders';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => keepScreenshot(page, { path: `${shots}/${name}.png`, fullPage: true });

async function gradeCard(page: Page): Promise<string> {
  const bytes = fs.readFileSync(new URL('1-gem-mint.jpg', SAMPLE_CARDS_DIR));
  const response = await page.request.post('/api/grade-card', {
    headers: { Origin: session.baseUrl },
    multipart: { frontImage: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: bytes }, cardType: 'pokemon' },
  });
  if (!response.ok()) throw new Error(`grading failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

const step = (page: Page, n: number, name: string) => page.getByRole('button', { name: new RegExp(`^Step ${n}: ${name}`) });

describe('/submit-card/{id}', () => {
  test('a guest is sent to sign in and comes back', async () => {
    const page = await session.newPage();
    await page.goto('/submit-card/some-card-id');
    await page.waitForURL((url) => url.pathname === '/auth');
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe('/submit-card/some-card-id');
    // Signing in there comes back to the wizard.
    const account = newAccount('Rita');
    await registerThroughApi(page, session.baseUrl, account);
    await page.context().clearCookies();
    await page.reload();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.locator('form[aria-label="Login"] button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === '/submit-card/some-card-id');
    await page.getByRole('heading', { name: 'Card Not Found' }).waitFor();
  });

  test("another user's card, or no card: Card Not Found", async () => {
    const owner = await session.newPage();
    await registerThroughApi(owner, session.baseUrl, newAccount('Owen'));
    const cardId = await gradeCard(owner);
    await owner.context().clearCookies();
    const page = await session.newPage(phone);
    await registerThroughApi(page, session.baseUrl, newAccount('Stella'));
    await page.goto(`/submit-card/${cardId}`);
    await page.getByRole('heading', { name: 'Card Not Found' }).waitFor();
    await page.getByText("We couldn't find the card you're looking for. It may have been deleted or doesn't exist.").waitFor();
    await page.getByRole('link', { name: 'Back to Collection' }).waitFor();
    await checkA11y(page, 'wizard-card-not-found');
  });

  for (const [label, viewport] of [
    ['phone', phone],
    ['desktop', desktop],
  ] as const) {
    test(`from a graded card to a placed order on ${label}`, async () => {
      const page = await session.newPage(viewport);
      await registerThroughApi(page, session.baseUrl, newAccount('Ada'));
      const cardId = await gradeCard(page);
      await page.goto(`/card/${cardId}`);
      await page.getByRole('link', { name: 'Submit for Professional Grading' }).click();
      await page.waitForURL((url) => url.pathname === `/submit-card/${cardId}`);
      await page.getByRole('heading', { name: 'Submit Card for Professional Grading' }).waitFor();
      await page.getByText(/^Current Grade: \d+\.\d\/10$/).waitFor();
      await page.getByRole('link', { name: 'Back to Card' }).waitFor();

      // Step 1: the first level is chosen for us; the guide shows '$1M+' for Ultra.
      await expect.poll(() => page.getByRole('radio', { name: /^Budget/ }).isChecked()).toBe(true);
      await page.getByRole('cell', { name: 'up to $1M+' }).waitFor();
      expect(await page.getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);
      await checkA11y(page, `wizard-service-level-${label}`);
      await shot(page, `wizard-1-service-level-${label}`);
      await page.getByRole('radio', { name: /^Standard/ }).check();
      await page.getByLabel('Declared value of the card (USD)').fill('250');

      // The review before anything else: its reasons.
      await step(page, 5, 'Review').click();
      await page.getByText('Incomplete', { exact: true }).waitFor();
      await page.getByText('Shipping address required').waitFor();
      await page.getByText('Payment information required').waitFor();
      expect(await page.getByText('Service level selection required').count()).toBe(0);
      await checkA11y(page, `wizard-review-incomplete-${label}`);
      await page.getByRole('button', { name: 'Submit Order' }).click();
      await expectToast(page, 'Missing information', 'Please complete all steps before submitting your order.');
      await step(page, 2, 'Add Ons').click();

      // Step 2: add-ons with the server's prices and their defaults.
      await page.getByRole('heading', { name: 'Additional Services' }).waitFor();
      await page.getByText('(+$3.00)').waitFor();
      expect(await page.getByRole('switch', { name: /Subgrades Report/ }).getAttribute('aria-checked')).toBe('true');
      expect(await page.getByRole('switch', { name: /Protective Slab Sleeve/ }).getAttribute('aria-checked')).toBe('true');
      expect(await page.getByRole('switch', { name: /Card Cleaning/ }).getAttribute('aria-checked')).toBe('false');
      await page.getByRole('switch', { name: /Card Cleaning/ }).click();
      await checkA11y(page, `wizard-add-ons-${label}`);
      await shot(page, `wizard-2-add-ons-${label}`);
      await page.getByRole('button', { name: 'Next' }).click();

      // Kept on reload.
      await page.reload();
      await page.getByRole('heading', { name: 'Shipping', exact: true }).waitFor();
      expect(await step(page, 1, 'Service Level').getAttribute('aria-label')).toContain('(complete)');

      // Step 3: no address yet; a new one, then insurance.
      await page.getByText('No Addresses Found').waitFor();
      await page.getByRole('tab', { name: 'New address' }).click();
      await page.getByLabel('Full name').fill('Ada Lovelace');
      await page.getByLabel('Address line 1').fill('12 Analytical Way');
      await page.getByLabel('City').fill('Springfield');
      await page.getByLabel('State').selectOption('IL');
      await page.getByLabel('ZIP code').fill('62701');
      await page.getByRole('button', { name: 'Save and Use Address' }).click();
      await expectToast(page, 'Address Added');
      await expect.poll(() => page.getByRole('radio', { name: /Ada Lovelace, 12 Analytical Way, Springfield/ }).isChecked()).toBe(true);
      await page.getByRole('checkbox', { name: /Shipping Insurance/ }).check();
      await page.getByText('Recommended', { exact: true }).first().waitFor();
      await checkA11y(page, `wizard-shipping-${label}`);
      await shot(page, `wizard-3-shipping-${label}`);
      await page.getByRole('button', { name: 'Next' }).click();

      // Step 4: 29.00 + 3.00 + 2.00 + 0.25 + 5.00 + 4.99 + 5.00 (2% of 250) = 49.24, from the server.
      await expect.poll(() => page.getByTestId('order-total').textContent()).toBe('$49.24');
      await page.getByRole('button', { name: 'Pay $49.24' }).click();
      await page.getByText('Card number must be at least 16 digits').waitFor();
      await page.getByText('Cardholder name is required').waitFor();
      await page.getByText('Month is required').waitFor();
      await checkA11y(page, `wizard-payment-errors-${label}`);
      const year = String(new Date().getFullYear() + 2);
      await page.getByLabel('Card number').fill('4000000000000002');
      await page.getByLabel('Cardholder name').fill('Ada Lovelace');
      await page.getByLabel('Month').selectOption('12');
      await page.getByLabel('Year').selectOption(year);
      await page.getByLabel('CVV').fill('737');
      await page.getByRole('button', { name: 'Pay $49.24' }).click();
      await expectToast(page, 'Payment Declined', 'Your card was declined.');
      await page.getByRole('heading', { name: 'Payment', exact: true }).waitFor();
      expect(await page.getByLabel('Card number').inputValue()).toBe('4000000000000002');
      await page.getByLabel('Card number').fill('4242424242424242');
      await page.getByRole('button', { name: 'Pay $49.24' }).click();
      await expectToast(page, 'Payment Successful', '$49.24 authorised on Visa ending in 4242.');
      const paid = page.getByRole('status').filter({ hasText: 'Payment Complete' });
      await paid.getByText('$49.24 authorised on Visa ending in 4242.').waitFor();
      await checkA11y(page, `wizard-payment-complete-${label}`);
      await shot(page, `wizard-4-payment-${label}`);
      await page.getByRole('button', { name: 'Next' }).click();

      // Step 5: ready; submit.
      await page.getByText('Ready to Submit').waitFor();
      await page.getByLabel('Order notes (optional)').fill('Please handle with care');
      await checkA11y(page, `wizard-review-ready-${label}`);
      await shot(page, `wizard-5-review-${label}`);
      const started = Date.now();
      await page.getByRole('button', { name: 'Submit Order' }).click();
      await page.getByRole('heading', { name: /^Your order #\d{6} has been placed$/ }).waitFor();
      const elapsed = Date.now() - started;
      console.info(`[figures] ${label}: 'Submit Order' to the confirmation in ${elapsed} ms`);
      const orderNumber = (await page.getByRole('heading', { name: /^Your order #/ }).textContent())!.match(/#(\d{6})/)![1]!;
      await expectToast(page, 'Order Placed', `Your order #${orderNumber} has been placed`);
      await checkA11y(page, `wizard-placed-${label}`);
      await page.waitForURL((url) => url.pathname === `/card/${cardId}`, { timeout: 5_000 });

      // The order history, from the account menu.
      await page.getByRole('button', { name: /^My Account/ }).click();
      await page.getByRole('menuitem', { name: 'My Orders' }).click();
      await page.waitForURL((url) => url.pathname === '/orders');
      const row = page.getByRole('link', { name: new RegExp(`#${orderNumber}`) });
      await row.getByText('$49.24').waitFor();
      await row.getByText('Standard').waitFor();
      await checkA11y(page, `orders-${label}`);
      await shot(page, `orders-list-${label}`);
      await row.click();
      await page.getByRole('heading', { name: `Order #${orderNumber}` }).waitFor();
      await page.getByText('Visa ending in 4242').waitFor();
      await page.getByText('Notes: Please handle with care').waitFor();
      await checkA11y(page, `order-${label}`);
      await shot(page, `order-page-${label}`);

      // A new wizard for the same card starts afresh (a new order).
      await page.goto(`/submit-card/${cardId}`);
      await page.getByRole('heading', { name: 'Service Level', exact: true }).waitFor();
    });
  }
});
