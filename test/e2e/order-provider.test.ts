import fs from 'node:fs';
import os from 'node:os';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { startGradingProviderFake, type GradingProviderFake } from '../support/grading-provider-server.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Issue 33 as a collector sees it when the grading provider is an external one: the server reads the provider's order
// status feed (a real HTTP server on loopback, ORDER_STATUS_FEED_URL); once the provider reports the order graded, the
// order's page shows its timeline at the provider's times and the card's page the professional grade it brought back,
// at desktop and phone sizes, with axe-core.

const TOKEN = 'e2e-feed-token-0123456789';
let fake: GradingProviderFake;
beforeAll(async () => {
  fake = await startGradingProviderFake(TOKEN);
  return () => fake.close();
});
const session = useBrowserSession({ server: () => ({ env: { ORDER_STATUS_FEED_URL: fake.url, ORDER_STATUS_FEED_TOKEN: TOKEN, ORDER_STATUS_POLL_MS: '300' } }) });

async function post(page: Page, url: string, data: unknown) {
  const response = await page.request.post(url, { headers: { Origin: session.baseUrl }, data });
  if (!response.ok()) throw new Error(`${url}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/** A placed order for a freshly graded card, as the wizard places it. */
async function placedOrder(page: Page): Promise<{ orderId: string; cardId: string }> {
  await registerThroughApi(page, session.baseUrl, newAccount('Sabrina'));
  const graded = await page.request.post('/api/grade-card', {
    headers: { Origin: session.baseUrl },
    multipart: { frontImage: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(new URL('1-gem-mint.jpg', SAMPLE_CARDS_DIR)) }, cardType: 'pokemon' },
    timeout: 60_000,
  });
  const cardId = ((await graded.json()) as { id: string }).id;
  const address = await post(page, '/api/shipping-addresses', { fullName: 'Sabrina Natsume', addressLine1: '1 Saffron Way', city: 'Springfield', state: 'IL', zipCode: '62701', country: 'United States', phoneNumber: '5551234567', isDefault: false });
  const selection = { serviceLevel: 'standard', cardCleaning: false, subgradesReport: false, heightMap: false, customShippingBox: false, slabCards: false, requireSignature: false, shippingInsurance: false, totalDeclaredValue: '100.00' };
  const wizardId = crypto.randomUUID();
  await post(page, '/api/orders/payment', { wizardId, cardId, selection, payment: { cardNumber: '4242424242424242', cardName: 'Sabrina Natsume', expiryMonth: '12', expiryYear: String(new Date().getUTCFullYear() + 2), cvv: '737' } });
  const order = await post(page, '/api/orders', { wizardId, cardId, selection, shippingAddressId: address.id });
  return { orderId: order.id, cardId };
}

/** The timeline's step whose label is exactly this ("Graded", not "Being graded"). */
const step = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Order progress' }).getByRole('listitem').filter({ has: page.getByText(label, { exact: true }) });

describe('an order at an external grading provider', () => {
  test('reported graded by the provider\'s feed: the timeline and the card\'s professional grade, desktop and phone', async () => {
    const page = await session.newPage(desktop);
    const { orderId, cardId } = await placedOrder(page);
    await page.goto(`/orders/${orderId}`);
    await step(page, 'Placed').waitFor();
    expect(await step(page, 'Graded').getAttribute('data-reached')).toBe('false');

    fake.publish(
      { reference: orderId, status: 'received', at: '2026-11-20T15:00:00.000Z', grades: [] },
      { reference: orderId, status: 'grading', at: '2026-11-21T15:00:00.000Z', grades: [] },
      { reference: orderId, status: 'graded', at: '2026-11-24T16:00:00.000Z', grades: [{ card_id: cardId, company: 'PSA', grade: 9, cert: '70001234' }] },
    );
    await expect
      .poll(
        async () => {
          await page.reload();
          await step(page, 'Placed').waitFor();
          return step(page, 'Graded').getAttribute('data-reached');
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe('true');
    // The provider's times, shown in New York time.
    expect(await step(page, 'Received by the grader').innerText()).toContain('Nov 20, 2026, 10:00 AM');
    expect(await step(page, 'Graded').innerText()).toContain('Nov 24, 2026, 11:00 AM');
    expect(await step(page, 'Shipped back').innerText()).toContain('Not yet');
    await checkA11y(page, 'order-timeline-provider-desktop');

    await page.setViewportSize(phone);
    await page.reload();
    await step(page, 'Graded').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'order-timeline-provider-phone');

    // The grade it brought back is on the card's page, in the grade history too.
    await page.goto(`/card/${cardId}`);
    await page.getByTestId('professional-grade-current').getByText('PSA 9').waitFor();
    await page.getByTestId('grade-history').getByText('Professional, from the order').waitFor();
    await checkA11y(page, 'card-order-grade-phone');
  }, 120_000);

  test('a professional grade reported from the order\'s page is the card\'s, desktop and phone', async () => {
    const page = await session.newPage(phone);
    const { orderId, cardId } = await placedOrder(page);
    await page.goto(`/orders/${orderId}`);
    const form = page.getByRole('form', { name: 'Report a professional grade' });
    await form.getByLabel('Company').selectOption('CGC');
    await form.getByLabel('Grade', { exact: true }).selectOption('8.5');
    await form.getByLabel('Certification number').fill('4123456007');
    await form.getByRole('button', { name: 'Report grade' }).click();
    await page.getByTestId('professional-grade-current').getByText('CGC 8.5').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'order-professional-grade-phone');
    await keepScreenshot(page, { path: `${os.tmpdir()}/shots-orders/order-professional-grade-phone.png`, fullPage: true });

    await page.setViewportSize(desktop);
    await page.goto(`/card/${cardId}`);
    await page.getByTestId('professional-grade-current').getByText('CGC 8.5').waitFor();
    await checkA11y(page, 'card-professional-grade-from-order-desktop');
  }, 120_000);
});
