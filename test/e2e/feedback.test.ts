import fs from 'node:fs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { FEEDBACK_CATEGORIES, feedbackSubmittedResponseSchema } from '../../src/contracts/feedback.ts';
import { checkA11y } from './support/a11y.ts';
import { phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// /feedback as a person uses it, on a phone (390x844): prefilled fields, the six categories, a picture attached and
// two refused (not an image by its bytes; over 5 MB), the thank-you state and 'Submit More Feedback', the toasts of
// SPEC.md §8, and axe-core on every state.

const session = useBrowserSession();
const shots = '/tmp/shots-operator';
fs.mkdirSync(shots, { recursive: true });

const screenshot = (page: Page, name: string) => keepScreenshot(page, { path: `${shots}/feedback-${name}.png`, fullPage: true });

async function fitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
}

const feedbackText = (page: Page) => page.getByRole('textbox', { name: 'Your Feedback', exact: true });

/** Clicks Submit Feedback; the server's answer to the POST /api/feedback it sends: status and body. */
async function submitAndRead(page: Page): Promise<{ status: number; body: string }> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/feedback'),
    page.getByRole('button', { name: 'Submit Feedback' }).click(),
  ]);
  return { status: response.status(), body: await response.text() };
}

describe('feedback', () => {
  test('a signed-in user: prefilled form, each category sent, a picture attached and two refused, thanks, and more', async () => {
    const page = await session.newPage(phone);
    await registerThroughApi(page, session.baseUrl, newAccount('Misty'));
    await page.goto('/feedback');
    await page.getByRole('heading', { name: 'Share Your Feedback' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Misty Lovelace');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toMatch(/^misty\.\d+\.\d+@example\.com$/);
    await fitsThePhone(page);
    await checkA11y(page, 'feedback-form-phone');
    await screenshot(page, 'form');

    // Blank (spaces only): nothing is sent.
    let posts = 0;
    page.on('request', (r) => void (r.method() === 'POST' && r.url().endsWith('/api/feedback') && posts++));
    await feedbackText(page).fill('   ');
    await page.getByRole('button', { name: 'Submit Feedback' }).click();
    await expectToast(page, 'Missing Feedback', 'Please provide your feedback before submitting.');
    expect(posts).toBe(0);
    await checkA11y(page, 'feedback-missing-phone');

    // The six categories, General Feedback first and chosen.
    expect(await page.getByRole('combobox', { name: 'Category' }).innerText()).toBe('General Feedback');
    await page.getByRole('combobox', { name: 'Category' }).click();
    expect(await page.getByRole('option').allInnerTexts()).toEqual(FEEDBACK_CATEGORIES.map((c) => c.label));
    await screenshot(page, 'categories');
    // No axe run while the list is open: Radix hides the page behind it with aria-hidden, as a modal list should.
    await page.keyboard.press('Escape');

    // Refused pictures: words in a file named .png, then a JPEG over 5 MB.
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('only words, no picture here') });
    await expectToast(page, 'Invalid File Type', 'Please select an image file (JPG, PNG, etc.)');
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0x20);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    await input.setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: big });
    await expectToast(page, 'File Too Large', 'Image must be smaller than 5MB');
    expect(await page.getByRole('img', { name: 'Attached image preview' }).count()).toBe(0);

    // A real picture: previewed, removable, and sent.
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#d33' } }).png().toBuffer();
    await input.setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'Attached image preview' }).waitFor();
    await page.getByRole('button', { name: 'Remove image' }).click();
    expect(await page.getByRole('img', { name: 'Attached image preview' }).count()).toBe(0);
    await page.locator('input[type="file"]').setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'Attached image preview' }).waitFor();

    for (const [index, category] of FEEDBACK_CATEGORIES.entries()) {
      await page.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option', { name: category.label }).click();
      await feedbackText(page).fill(`  Note ${index} about ${category.label}  `);
      if (index === 0) {
        await fitsThePhone(page);
        await screenshot(page, 'filled');
      }
      const sent = await submitAndRead(page);
      expect(sent.status).toBe(201);
      // As recorded by the server: the category chosen, the text trimmed, the name prefilled, the picture kept.
      const { feedback } = feedbackSubmittedResponseSchema.parse(JSON.parse(sent.body));
      expect(feedback).toMatchObject({ category: category.value, feedbackText: `Note ${index} about ${category.label}`, name: 'Misty Lovelace', status: 'new' });
      if (index === 0) expect(Buffer.from(await (await page.request.get(feedback.imageUrl!)).body()).equals(png)).toBe(true);
      else expect(feedback.imageUrl).toBeNull();

      await page.getByRole('heading', { name: 'Thank You!' }).waitFor();
      if (index === 0) {
        await fitsThePhone(page);
        await checkA11y(page, 'feedback-thanks-phone');
        await screenshot(page, 'thanks');
      }
      await page.getByRole('button', { name: 'Submit More Feedback' }).click();
      // A fresh form: prefilled again, no text, no picture, General Feedback.
      await page.getByRole('heading', { name: 'Share Your Feedback' }).waitFor();
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Misty Lovelace');
      expect(await feedbackText(page).inputValue()).toBe('');
      expect(await page.getByRole('combobox', { name: 'Category' }).innerText()).toBe('General Feedback');
      expect(await page.getByRole('img', { name: 'Attached image preview' }).count()).toBe(0);
    }
  });

  test('a guest sends feedback with nothing prefilled; past the guest limit the server\'s refusal is the Submission Failed toast', async () => {
    const page = await session.newPage(phone);
    await page.goto('/feedback');
    await page.getByRole('heading', { name: 'Share Your Feedback' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('');
    await feedbackText(page).fill('Grading without an account works nicely.');
    expect((await submitAndRead(page)).status).toBe(201);
    await page.getByRole('heading', { name: 'Thank You!' }).waitFor();
    await page.getByRole('button', { name: 'Submit More Feedback' }).click();

    // The guest limit is per address (10 an hour by default): use up the rest through the API, then try once more.
    for (let sent = 1; sent < 10; sent++) {
      const answer = await page.request.post('/api/feedback', { headers: { Origin: session.baseUrl }, multipart: { feedbackText: `more ${sent}` } });
      expect(answer.status()).toBe(201);
    }
    await feedbackText(page).fill('One more thought');
    expect((await submitAndRead(page)).status).toBe(429);
    await expectToast(page, 'Submission Failed', 'You have sent a lot of feedback in a short time.');
    // The form stays as it was, so nothing typed is lost.
    expect(await feedbackText(page).inputValue()).toBe('One more thought');
    await checkA11y(page, 'feedback-failed-phone');
    await screenshot(page, 'failed');
  });
});
