import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import type { CollectionCard } from '../../src/contracts/cards.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Issue 35: the card in every picture (the collection's tile, the portfolio's row and page, the viewer and the order
// wizard show the flattened card, 63 × 88, not the photo with its table round it; the photo is one click away), and
// one place for what I own (saving can add the card to the portfolio too, a choice remembered; each links to the other).

const session = useBrowserSession();
const shots = '/tmp/shots-card-pictures';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => keepScreenshot(page, { path: `${shots}/${name}.png` });
const sample = (name: string) => path.join(fileURLToPath(SAMPLE_CARDS_DIR), name);

const CARD_ASPECT = 63 / 88;
/** The sample photos are 1232 × 1540: the card on a table, 0.8 wide for 1 tall. */
const PHOTO_ASPECT = 0.8;

/** The width for a height of the picture an <img> drew, once it has loaded. */
async function aspectOf(image: Locator): Promise<number> {
  await image.waitFor();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const size = await image.evaluate((img: HTMLImageElement) => (img.complete ? { w: img.naturalWidth, h: img.naturalHeight } : null));
    if (size && size.w > 0) return size.w / size.h;
    if (Date.now() > deadline) throw new Error('the picture did not load');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const expectCard = async (image: Locator) => expect(await aspectOf(image)).toBeCloseTo(CARD_ASPECT, 2);
const expectPhoto = async (image: Locator) => expect(await aspectOf(image)).toBeCloseTo(PHOTO_ASPECT, 2);

async function gradeThroughPage(page: Page, photo: string): Promise<void> {
  await page.goto('/');
  await page.setInputFiles('#front-image', sample(photo));
  await page.getByRole('button', { name: 'Grade Card' }).click();
  await page.getByTestId('overall-grade').waitFor({ timeout: 60_000 });
}

const portfolioCheckbox = (page: Page) => page.getByRole('checkbox', { name: 'Also add to my portfolio' }).first();

async function myCards(page: Page): Promise<CollectionCard[]> {
  return (await (await page.request.get('/api/my-cards')).json()) as CollectionCard[];
}

describe('the card in every picture, and one place for what I own', () => {
  for (const [label, viewport] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    test(`saved with the portfolio box ticked, the card shows flattened in the collection, the portfolio and the viewer, on ${label}`, async () => {
      const page = await session.newPage(viewport);
      await registerThroughApi(page, session.baseUrl, newAccount('Misty'));
      await gradeThroughPage(page, '1-gem-mint.jpg');

      // Unticked until chosen; ticked, the save puts the card in both.
      const box = portfolioCheckbox(page);
      expect(await box.isChecked()).toBe(false);
      await box.check();
      // On a phone the box rides in the action bar's Save cell: the bar stays a small strip of the screen.
      if (label === 'phone') expect((await page.getByTestId('result-actions').boundingBox())!.height).toBeLessThan(phone.height / 5);
      await shot(page, `result-save-with-portfolio-${label}`);
      await checkA11y(page, `save-with-portfolio-${label}`);
      await page.getByRole('button', { name: 'Save to Collection' }).first().click();
      await expectToast(page, 'Card Saved', 'Your graded card has been saved to your collection and your portfolio.');
      await page.waitForURL('**/collection');

      const [card] = await myCards(page);
      expect(card!.cardThumbUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
      expect(card!.portfolioCardId).not.toBeNull();

      // The collection's tile: the flattened card's thumbnail, not the photo.
      const tile = page.getByTestId('collection-card').first();
      const tileImage = tile.getByRole('img', { name: /^Front of / });
      expect(await tileImage.getAttribute('src')).toBe(card!.cardThumbUrl);
      await expectCard(tileImage);
      await shot(page, `collection-${label}`);
      await checkA11y(page, `collection-with-portfolio-link-${label}`);

      // "In your portfolio →" opens the same card's portfolio page, which shows the flattened card too.
      await tile.getByRole('link', { name: /in your portfolio/ }).click();
      await page.waitForURL(`**/portfolio/card/${card!.portfolioCardId}`);
      const picture = page.getByTestId('portfolio-card-picture').first();
      await expectCard(picture.locator('img'));
      await checkA11y(page, `portfolio-card-page-${label}`);

      // The viewer: the card first, the original photo one click away, and back.
      await picture.click();
      const viewed = page.getByTestId('image-viewer-image');
      expect(await viewed.getAttribute('data-picture')).toBe('card');
      await expectCard(viewed);
      await checkA11y(page, `viewer-card-${label}`);
      await shot(page, `viewer-card-${label}`);
      const original = page.getByRole('button', { name: 'Original photo' });
      await original.click();
      expect(await original.getAttribute('aria-pressed')).toBe('true');
      expect(await viewed.getAttribute('src')).toBe(card!.imageUrl);
      await expectPhoto(viewed);
      await shot(page, `viewer-photo-${label}`);
      await checkA11y(page, `viewer-photo-${label}`);
      await original.click();
      await expectCard(viewed);
      await page.keyboard.press('Escape');
      await viewed.waitFor({ state: 'detached' });

      // "In your collection →" goes back to the card, whose page links to the portfolio entry again.
      await page.getByRole('link', { name: /in your collection/ }).first().click();
      await page.waitForURL(`**/card/${card!.id}`);
      await page.getByTestId('portfolio-link').waitFor();
      expect(await page.getByTestId('portfolio-link').getAttribute('href')).toBe(`/portfolio/card/${card!.portfolioCardId}`);

      // The portfolio's list: its row (a table on a desktop, a card on a phone) shows the flattened card as well.
      await page.goto('/portfolio');
      const row = page.getByTestId(label === 'desktop' ? 'portfolio-row' : 'portfolio-card').first();
      const thumb = row.getByRole('button', { name: /^View the image of / });
      await expectCard(thumb.locator('img'));
      await row.getByRole('link', { name: /in your collection/ }).waitFor();
      await shot(page, `portfolio-${label}`);
      await checkA11y(page, `portfolio-with-collection-link-${label}`);
      await thumb.click();
      await expectCard(page.getByTestId('image-viewer-image'));
      await page.keyboard.press('Escape');

      // The order wizard's summary: the card, not the photo.
      await page.goto(`/submit-card/${card!.id}`);
      const summary = page.getByRole('img', { name: `${card!.cardName}, front` });
      expect(await summary.getAttribute('src')).toBe(card!.cardImageUrl);
      await expectCard(summary);
      await shot(page, `wizard-summary-${label}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  }

  test('the choice is remembered for the next save in this browser, and unticked it keeps the card out of the portfolio', async () => {
    const page = await session.newPage(desktop);
    await registerThroughApi(page, session.baseUrl, newAccount('Brock'));
    await gradeThroughPage(page, '2-off-center.jpg');
    await portfolioCheckbox(page).check();
    await page.getByRole('button', { name: 'Save to Collection' }).first().click();
    await page.waitForURL('**/collection');

    // A new page load, a new card: the box is as it was left.
    await gradeThroughPage(page, '4-scratched.jpg');
    expect(await portfolioCheckbox(page).isChecked()).toBe(true);
    await portfolioCheckbox(page).uncheck();
    await page.getByRole('button', { name: 'Save to Collection' }).first().click();
    await expectToast(page, 'Card Saved', 'Your graded card has been saved to your collection.');
    await page.waitForURL('**/collection');
    const cards = await myCards(page);
    expect(cards).toHaveLength(2);
    // Newest first: the one saved unticked is not in the portfolio, and its tile offers no link there.
    expect(cards.map((c) => c.portfolioCardId === null)).toEqual([true, false]);
    await page.getByTestId('collection-card').nth(1).getByRole('link', { name: /in your portfolio/ }).waitFor();
    expect(await page.getByTestId('collection-card').first().getByRole('link', { name: /in your portfolio/ }).count()).toBe(0);

    // Unticked is remembered too.
    await gradeThroughPage(page, '1-gem-mint.jpg');
    expect(await portfolioCheckbox(page).isChecked()).toBe(false);
  });

  test('a guest saves to the collection kept for their browser, with no portfolio box to tick', async () => {
    const page = await session.newPage(phone);
    await gradeThroughPage(page, '1-gem-mint.jpg');
    expect(await page.getByRole('checkbox', { name: 'Also add to my portfolio' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save to Collection' }).first().click();
    await expectToast(page, 'Card Saved', 'Your graded card has been saved to your collection.');
    await page.waitForURL('**/collection');
    await expectCard(page.getByTestId('collection-card').first().getByRole('img', { name: /^Front of / }));
  });
});
