import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import type { PortfolioCard } from '../../src/contracts/portfolio.ts';
import { syntheticCardFile, tempDir, useFakeVisionModel, useImageServer, y4mFrame } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// The portfolio as a person uses it, in Chromium: every add mode (upload, drag-and-drop, URLs, the camera through
// Chromium's fake camera, manual entry), inline and detail edit, delete, search, graded only, sort, pages, the image
// viewer, the value chart, a phone, and axe-core on each screen. Screenshots go to /tmp/shots-portfolio/.

process.env.ALLOW_LOOPBACK_IMAGE_URLS = 'true';
const images = useImageServer();
const model = useFakeVisionModel();
const session = useBrowserSession();

const SHOTS = '/tmp/shots-portfolio';
fs.mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => keepScreenshot(page, { path: path.join(SHOTS, `${name}.png`), fullPage: true });

const samples = ['1-gem-mint.jpg', '2-off-center.jpg', '3-whitened-corner.jpg', '4-scratched.jpg', '5-edge-wear.jpg'].map((name) =>
  fs.readFileSync(new URL(name, SAMPLE_CARDS_DIR)),
);

async function signedIn(page: Page, name = 'Ash'): Promise<void> {
  await registerThroughApi(page, session.baseUrl, newAccount(name));
}

async function addThroughApi(page: Page, card: Record<string, unknown>): Promise<PortfolioCard> {
  const response = await page.request.post('/api/portfolio', { headers: { Origin: session.baseUrl }, data: card });
  if (!response.ok()) throw new Error(`add failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as PortfolioCard;
}

/**
 * A toast shown while the Add dialog is open: Radix hides everything outside a modal dialog from the accessibility
 * tree, so it is found by its element, and the dialog says the same in its own live region.
 */
async function expectToastBehindDialog(page: Page, title: string, description: string): Promise<void> {
  await page.locator('li').filter({ hasText: title }).filter({ hasText: description }).waitFor();
  await page.getByRole('dialog').getByTestId('bulk-outcome').filter({ hasText: description }).waitFor();
}

const myPortfolio = async (page: Page) => (await (await page.request.get('/api/portfolio')).json()) as PortfolioCard[];
const rowNames = (page: Page) => page.getByTestId('portfolio-row').getByRole('link').allInnerTexts();
const summary = (page: Page, name: string) => page.getByTestId(`summary-${name}`).innerText();

async function choose(page: Page, trigger: ReturnType<Page['getByRole']>, option: string) {
  await trigger.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('portfolio', () => {
  test('a guest sees the notice, and the list is not asked for', async () => {
    const page = await session.newPage();
    let listCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/portfolio')) listCalls++;
    });
    await page.goto('/portfolio');
    await page.getByRole('heading', { name: 'My Portfolio', level: 1 }).waitFor();
    await page.getByText("You're browsing Portfolio without an account. Your data won't be saved permanently.").waitFor();
    expect(await page.getByRole('link', { name: 'Sign up to keep your portfolio' }).getAttribute('href')).toBe('/auth?returnTo=%2Fportfolio');
    await page.getByRole('heading', { name: 'No cards found' }).waitFor();
    expect(listCalls).toBe(0);
    await checkA11y(page, 'portfolio-guest');
    await shot(page, 'guest');
    // A card's page: nothing to show a guest, with the same notice, and nothing asked of the server.
    await page.goto('/portfolio/card/12');
    await page.getByRole('heading', { name: 'Card Not Found' }).waitFor();
    await page.getByText("You're browsing Portfolio without an account.").waitFor();
    expect(listCalls).toBe(0);
    await checkA11y(page, 'portfolio-card-guest');
  });

  test('manual entry, summary, value chart, image viewer, inline edit, detail edit with price history, delete', async () => {
    const page = await session.newPage();
    await signedIn(page);
    await page.goto('/portfolio');
    await page.getByRole('heading', { name: 'No cards found' }).waitFor();
    await checkA11y(page, 'portfolio-empty');

    // Manual entry: the name is required; company and official grade only once marked graded.
    await page.getByRole('button', { name: 'Add Your First Card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Card(s)' });
    await dialog.getByRole('tab', { name: 'Manual Entry', selected: true }).waitFor();
    expect(await dialog.getByLabel('Condition').inputValue()).toBe('Near Mint');
    expect(await dialog.getByLabel('Official grade').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Add Card', exact: true }).click();
    await dialog.getByText('Card name is required').waitFor();
    await checkA11y(page, 'portfolio-add-manual');
    await dialog.getByLabel('Card name *').fill('Charizard');
    await dialog.getByLabel('Set').fill('Base Set');
    await dialog.getByLabel('Card number').fill('4/102');
    await dialog.getByLabel('Professionally graded').check();
    await choose(page, dialog.getByRole('combobox', { name: 'Grading company' }), 'PSA');
    await dialog.getByLabel('Official grade').fill('9.5');
    await dialog.getByLabel('Current price ($)').fill('350.10');
    await dialog.getByLabel('Acquisition cost ($)').fill('120');
    await dialog.getByLabel('Front image URL').fill(images.host('charizard-front.jpg', samples[0]!));
    await dialog.getByLabel('Back image URL').fill(images.host('charizard-back.jpg', samples[3]!));
    await dialog.getByRole('button', { name: 'Add Card', exact: true }).click();
    await expectToast(page, 'Card Added');
    await dialog.waitFor({ state: 'detached' });

    // The four summary cards: 230.10 on 120.00 is 191.75 %, shown to one decimal.
    await expect.poll(() => rowNames(page)).toEqual(['Charizard']);
    expect(await summary(page, 'total-cards')).toBe('1');
    await page.getByText('1 graded').waitFor();
    expect(await summary(page, 'portfolio-value')).toBe('$350.10');
    expect(await summary(page, 'total-investment')).toBe('$120.00');
    expect(await summary(page, 'gain-loss')).toBe('+$230.10');
    await page.getByText('+191.8%').waitFor();
    const row = page.getByTestId('portfolio-row').first();
    expect(await row.innerText()).toMatch(/Graded\s+PSA\s+9\.5\s+\$350\.10\s+\$120\.00\s+—/);
    // The value chart: value and cost basis by day.
    await page.getByTestId('value-chart').waitFor();
    await page.getByText('Show the figures').click();
    expect(await page.getByTestId('value-chart').getByRole('row').nth(1).innerText()).toMatch(/\$350\.10\s+\$120\.00/);
    await checkA11y(page, 'portfolio-list');
    await shot(page, 'list-desktop');

    // The large image viewer, front and back.
    await page.getByRole('button', { name: 'View the image of Charizard' }).click();
    const viewer = page.getByRole('dialog', { name: 'Charizard' });
    await viewer.getByTestId('image-viewer-image').waitFor();
    expect(await viewer.getByTestId('image-viewer-image').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await viewer.getByRole('button', { name: 'Back' }).click();
    expect(await viewer.getByTestId('image-viewer-image').getAttribute('src')).toContain('charizard-back.jpg');
    await checkA11y(page, 'portfolio-image-viewer');
    await shot(page, 'image-viewer');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    // Inline edit: Cancel drops the draft; Save sends only what changed.
    await page.getByRole('button', { name: 'Edit Charizard' }).click();
    const editor = page.getByRole('form', { name: 'Edit Charizard' });
    await editor.getByLabel('Card name').fill('Not saved');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    expect(await rowNames(page)).toEqual(['Charizard']);
    await page.getByRole('button', { name: 'Edit Charizard' }).click();
    await editor.getByLabel('Price').fill('400');
    await checkA11y(page, 'portfolio-inline-edit');
    const patch = page.waitForRequest((request) => request.method() === 'PATCH');
    await editor.getByRole('button', { name: 'Save' }).click();
    expect((await patch).postDataJSON()).toEqual({ currentPrice: '400' });
    await expectToast(page, 'Card Updated');
    await expect.poll(() => summary(page, 'portfolio-value')).toBe('$400.00');

    // The detail page, its edit (PUT), and every recorded price.
    await row.click();
    await page.waitForURL(/\/portfolio\/card\/\d+$/);
    await page.getByRole('heading', { name: 'Charizard', level: 1 }).waitFor();
    for (const heading of ['Card Information', 'Grading Information', 'Pricing', 'Price history']) await page.getByRole('heading', { name: heading }).waitFor();
    expect(await page.getByTestId('detail-price').innerText()).toBe('$400.00');
    expect(await page.getByTestId('detail-gain').innerText()).toBe('+$280.00 (+233.3%)');
    expect(await page.getByTestId('price-history-entry').allInnerTexts()).toEqual([
      expect.stringMatching(/Manual entry\s+\$350\.10$/),
      expect.stringMatching(/Manual entry\s+\$400\.00$/),
    ]);
    await page.getByTestId('price-history-chart').waitFor();
    await checkA11y(page, 'portfolio-detail');
    await shot(page, 'detail-desktop');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill('Charizard Holo');
    await page.getByLabel('Notes').fill('Bought at a show');
    await page.getByLabel('Current price ($)').fill('410.5');
    await checkA11y(page, 'portfolio-detail-edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Card updated');
    await page.getByRole('heading', { name: 'Charizard Holo', level: 1 }).waitFor();
    await page.getByText('Bought at a show').waitFor();
    expect(await page.getByTestId('price-history-entry').count()).toBe(3);

    // Someone else's id, no id, not an id: Card Not Found with the way back.
    const [card] = await myPortfolio(page);
    for (const url of ['/portfolio/card/2147483647', '/portfolio/card/abc']) {
      await page.goto(url);
      await page.getByRole('heading', { name: 'Card Not Found' }).waitFor();
      await page.getByRole('link', { name: 'Back to Portfolio' }).waitFor();
    }
    await checkA11y(page, 'portfolio-card-not-found');
    await page.goto('/portfolio/card');
    await page.waitForURL(/\/portfolio$/);

    // Delete with confirmation, from the detail page.
    await page.goto(`/portfolio/card/${card!.id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByText('Are you sure you want to delete Charizard Holo from your portfolio?').waitFor();
    await checkA11y(page, 'portfolio-delete-confirm');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Card Deleted');
    await page.waitForURL(/\/portfolio$/);
    await page.getByRole('heading', { name: 'No cards found' }).waitFor();
    expect(await myPortfolio(page)).toEqual([]);
  });

  test('search, graded only, sort and pages of 100, and delete from the list', async () => {
    const page = await session.newPage();
    await signedIn(page, 'Brock');
    for (let i = 1; i <= 105; i++) {
      const n = String(i).padStart(3, '0');
      await addThroughApi(page, {
        cardName: `Card ${n}`,
        cardSet: i % 10 === 0 ? 'Jungle' : 'Fossil',
        cardYear: i === 42 ? '1999' : '2000',
        currentPrice: `${i}.${String(i % 100).padStart(2, '0')}`,
        ...(i % 7 === 0 ? { isGraded: true, gradingCompany: 'CGC', officialGrade: 8 } : {}),
      });
    }
    await page.goto('/portfolio');
    await page.getByText('Showing 1-100 of 105 cards').waitFor();
    expect((await rowNames(page))[0]).toBe('Card 105');
    expect(await page.getByRole('button', { name: /^Page \d+$/ }).count()).toBe(2);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.getByText('Showing 101-105 of 105 cards').waitFor();
    expect(await rowNames(page)).toEqual(['Card 005', 'Card 004', 'Card 003', 'Card 002', 'Card 001']);

    // Search (name, set, number, year) goes back to page 1.
    await page.getByRole('searchbox', { name: 'Search cards' }).fill('jungle');
    await page.getByText('Showing 1-10 of 10 cards').waitFor();
    expect(page.url()).not.toContain('page=');
    await page.getByRole('searchbox', { name: 'Search cards' }).fill('1999');
    await expect.poll(() => rowNames(page)).toEqual(['Card 042']);
    await page.getByRole('searchbox', { name: 'Search cards' }).fill('');
    await page.getByText('Showing 1-100 of 105 cards').waitFor();

    // Graded only, then by price.
    await page.getByLabel('Graded only').check();
    await page.getByText('Showing 1-15 of 15 cards').waitFor();
    await choose(page, page.getByRole('combobox', { name: 'Sort' }), 'Price (Low to High)');
    await expect.poll(async () => (await rowNames(page)).slice(0, 3)).toEqual(['Card 007', 'Card 014', 'Card 021']);
    expect(await summary(page, 'total-cards')).toBe('105');
    await page.getByText('15 graded').waitFor();
    await checkA11y(page, 'portfolio-filtered');
    await shot(page, 'filtered');
    await page.getByLabel('Graded only').uncheck();
    await choose(page, page.getByRole('combobox', { name: 'Sort' }), 'Name (Z-A)');
    await expect.poll(async () => (await rowNames(page)).slice(0, 2)).toEqual(['Card 105', 'Card 104']);

    // CSV export of the whole portfolio.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^my-portfolio-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = fs.readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines).toHaveLength(106);
    expect(lines[0]).toMatch(/^Card Name,Set,Card Number,Year,Category,Graded,/);
    expect(lines[1]).toMatch(/^Card 105,Fossil,,2000,Trading Card,Yes,CGC,8\.0,/);
    await expectToast(page, 'Export Complete', 'Exported 105 cards to CSV file.');

    // Delete from the list, with confirmation.
    await page.getByRole('button', { name: 'Delete Card 105' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Card Deleted');
    await page.getByText('Showing 1-100 of 104 cards').waitFor();
    expect((await rowNames(page))[0]).toBe('Card 104');
  });

  test('ten photos dropped on the page become five analysed cards', async () => {
    const page = await session.newPage();
    await signedIn(page, 'Misty');
    model.identifyAs({ cardName: 'Pikachu', cardSet: 'Jungle', cardNumber: '60/64', rarity: 'common', estimatedValueUsd: 12.5 });
    await page.goto('/portfolio');
    await page.getByRole('heading', { name: 'No cards found' }).waitFor();

    // Drag-and-drop anywhere on the page opens the dialog in upload mode with the photos.
    const photos = [0, 1, 2, 3, 4, 0, 1, 2, 3, 4].map((i, n) => ({ name: `photo-${n + 1}.jpg`, b64: samples[i]!.toString('base64') }));
    const dataTransfer = await page.evaluateHandle((files) => {
      const transfer = new DataTransfer();
      for (const file of files) {
        const bytes = Uint8Array.from(atob(file.b64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: 'image/jpeg' }));
      }
      return transfer;
    }, photos);
    await page.dispatchEvent('[data-testid=portfolio-page]', 'dragover', { dataTransfer });
    await page.getByText('Drop photos to add cards').waitFor();
    await page.dispatchEvent('[data-testid=portfolio-page]', 'drop', { dataTransfer });
    const dialog = page.getByRole('dialog', { name: 'Add Card(s)' });
    await dialog.getByRole('tab', { name: 'Upload Photos', selected: true }).waitFor();
    expect(await dialog.getByTestId('upload-summary').innerText()).toBe('10 photos selected: 5 cards');
    await checkA11y(page, 'portfolio-add-upload');
    const started = Date.now();
    await dialog.getByRole('button', { name: 'Analyze & Add 5 Cards' }).click();
    await dialog.getByTestId('bulk-item').first().waitFor();
    await shot(page, 'bulk-analysing');
    await expect.poll(() => page.getByTestId('portfolio-row').count(), { timeout: 60_000 }).toBe(5);
    const dropToList = Date.now() - started;
    await expectToastBehindDialog(page, 'Cards Added', 'Successfully analyzed and added 5 card(s) to your portfolio');
    console.log(`portfolio figure: 10 photos (5 pairs) dropped to 5 cards in the list: ${(dropToList / 1000).toFixed(1)} s`);
    expect(await dialog.getByTestId('bulk-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-status')))).toEqual(Array(5).fill('complete'));
    // The items, the photos and the URLs clear 3 seconds after the last one.
    await dialog.getByTestId('bulk-item').first().waitFor({ state: 'detached', timeout: 6_000 });
    expect(await dialog.getByTestId('bulk-outcome').count()).toBe(0);
    expect(await dialog.getByTestId('upload-summary').count()).toBe(0);
    const added = await myPortfolio(page);
    expect(added.map((c) => [c.cardName, c.category, c.currentPrice, c.isGraded])).toEqual(Array(5).fill(['Pikachu', 'Pokemon Card', '12.50', false]));
    expect(added.every((c) => c.imageUrl?.startsWith('/api/images/') && c.backImageUrl?.startsWith('/api/images/') && c.estimatedGrade !== null)).toBe(true);

    // Paste URLs, with a URL that fails, has a test of its own (portfolio-paste-urls.test.ts).
    await page.keyboard.press('Escape');
    await shot(page, 'after-bulk');
  });

  test('a photo taken with the camera (Chromium’s fake camera showing a drawn card) is analysed and added', async () => {
    // A drawn card as the camera's picture: one YUV 4:2:0 frame, which Chromium's fake camera repeats.
    const { bytes } = await syntheticCardFile('camera-card.jpg', { borders: { leftMm: 3, rightMm: 3, topMm: 3, bottomMm: 3 }, photo: { noise: 2 } }, 77);
    const { data, info } = await sharp(bytes).resize({ width: 1080, height: 1350, fit: 'contain', background: '#3a5a40' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const video = path.join(tempDir, 'camera-card.y4m');
    fs.writeFileSync(video, y4mFrame(data, info.width, info.height));

    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    });
    try {
      const context = await browser.newContext({ baseURL: session.baseUrl, viewport: phone, permissions: ['camera'] });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await signedIn(page, 'Gary');
      model.identifyAs({ cardName: 'Mewtwo', cardSet: 'Base Set', cardNumber: '10/102', rarity: 'rare', estimatedValueUsd: 75 });
      await page.goto('/portfolio');
      await page.getByRole('button', { name: 'Add Card(s)' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Card(s)' });
      await dialog.getByRole('tab', { name: 'Take Photo' }).click();
      await expect.poll(() => dialog.getByLabel('Camera preview').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 15_000 }).toBeGreaterThan(0);
      await dialog.getByRole('button', { name: 'Capture Front' }).click();
      await dialog.getByRole('img', { name: 'Captured front' }).waitFor();
      // Retake, then take the front again and add it without a back.
      await dialog.getByRole('button', { name: 'Retake' }).click();
      expect(await dialog.getByRole('img', { name: 'Captured front' }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Capture Front' }).click();
      await checkA11y(page, 'portfolio-add-camera');
      await keepScreenshot(page, { path: path.join(SHOTS, 'camera-phone.png'), fullPage: true });
      await dialog.getByRole('button', { name: 'Analyze & Add' }).click();
      await page.locator('li').filter({ hasText: 'Cards Added' }).waitFor({ timeout: 30_000 });
      await expectToastBehindDialog(page, 'Cards Added', 'Successfully analyzed and added 1 card(s) to your portfolio');
      const cards = (await (await page.request.get('/api/portfolio')).json()) as PortfolioCard[];
      expect(cards.map((c) => [c.cardName, c.currentPrice, c.category])).toEqual([['Mewtwo', '75.00', 'Pokemon Card']]);
      expect(cards[0]!.estimatedGrade).not.toBeNull();
      await context.close();

      // No camera at all: a clear message instead of a broken preview.
      const noCamera = await browser.newContext({ baseURL: session.baseUrl });
      const other = await noCamera.newPage();
      await other.addInitScript(() => {
        Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) } });
      });
      await signedIn(other, 'Tracey');
      await other.goto('/portfolio');
      await other.getByRole('button', { name: 'Add Card(s)' }).click();
      await other.getByRole('tab', { name: 'Take Photo' }).click();
      await other.getByRole('alert').filter({ hasText: 'Camera access was refused' }).waitFor();
      await noCamera.close();
    } finally {
      await browser.close();
    }
  });

  test('on a 390×844 phone the list is cards, and the detail page fits', async () => {
    const page = await session.newPage(phone);
    await signedIn(page, 'Dawn');
    await addThroughApi(page, { cardName: 'Umbreon VMAX', cardSet: 'Evolving Skies', isGraded: true, gradingCompany: 'BGS', officialGrade: 9.5, currentPrice: '99999999.99', acquisitionPrice: '0.01' });
    await addThroughApi(page, { cardName: 'Eevee', currentPrice: '0.99', acquisitionPrice: '1.00', imageUrl: images.host('eevee.jpg', samples[2]!) });
    await page.goto('/portfolio');
    await page.getByTestId('portfolio-card').first().waitFor();
    expect(await page.getByTestId('portfolio-card').count()).toBe(2);
    expect(await page.getByRole('table').isVisible()).toBe(false);
    expect(await summary(page, 'portfolio-value')).toBe('$100,000,000.98');
    expect(await summary(page, 'gain-loss')).toBe('+$99,999,999.97');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await checkA11y(page, 'portfolio-phone');
    await shot(page, 'list-phone');
    // Inline edit on a phone.
    await page.getByRole('button', { name: 'Edit Eevee' }).click();
    await page.getByRole('form', { name: 'Edit Eevee' }).getByLabel('Cost').fill('0.50');
    await page.getByRole('form', { name: 'Edit Eevee' }).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Card Updated');
    await page.getByRole('link', { name: 'Eevee' }).click();
    await page.getByRole('heading', { name: 'Eevee', level: 1 }).waitFor();
    expect(await page.getByTestId('detail-gain').innerText()).toBe('+$0.49 (+98.0%)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await checkA11y(page, 'portfolio-detail-phone');
    await shot(page, 'detail-phone');
  });
});
