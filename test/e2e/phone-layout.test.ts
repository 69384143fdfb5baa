import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Issue 35, item 8: on a 390 px phone no page scrolls sideways (every main route, with data in it), the collection
// has two columns, and the enlarged picture's toolbar is one line.

const session = useBrowserSession();
const shots = '/tmp/shots-phone-layout';
fs.mkdirSync(shots, { recursive: true });

/** The document's scroll width, and the elements that reach past the screen's right edge (to say what to fix). */
async function sidewaysScroll(page: Page): Promise<{ width: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.scrollWidth;
    const culprits: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const box = element.getBoundingClientRect();
      if (box.right > window.innerWidth + 0.5 && box.width > 0) {
        const id = element.getAttribute('data-testid') ?? element.className.toString().slice(0, 80);
        culprits.push(`${element.tagName.toLowerCase()} ${id} right=${Math.round(box.right)}`);
      }
    }
    return { width, culprits: culprits.slice(0, 8) };
  });
}

async function gradedCardId(page: Page, sample = '2-off-center.jpg'): Promise<string> {
  const bytes = fs.readFileSync(new URL(sample, SAMPLE_CARDS_DIR));
  const response = await page.request.post('/api/grade-card', {
    headers: { Origin: session.baseUrl },
    multipart: { frontImage: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: bytes } },
  });
  if (!response.ok()) throw new Error(`grading failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function addPortfolioCards(page: Page): Promise<string> {
  const ids: string[] = [];
  for (const [cardName, currentPrice, acquisitionPrice] of [
    ['Charizard Holo 1st Edition Shadowless Base Set', 420_000.5, 18_250.75],
    ['Blastoise', 350, 120],
    ['Venusaur', 12.5, 40],
  ] as const) {
    const response = await page.request.post('/api/portfolio', {
      headers: { Origin: session.baseUrl },
      data: { cardName, cardSet: 'Base Set', cardNumber: '4/102', currentPrice, acquisitionPrice, isGraded: true, gradingCompany: 'PSA', officialGrade: 9 },
    });
    if (!response.ok()) throw new Error(`adding failed: ${response.status()} ${await response.text()}`);
    ids.push(((await response.json()) as { id: string }).id);
  }
  // The one with the longest name and the largest figures.
  return ids[0]!;
}

describe('a 390 px phone', () => {
  test('no main page scrolls sideways, with data in it', async () => {
    const page = await session.newPage(phone);
    await registerThroughApi(page, session.baseUrl, newAccount('Wanda'));
    const cardId = await gradedCardId(page);
    const portfolioCardId = await addPortfolioCards(page);
    const routes: [string, string][] = [
      ['/', 'Grade a card'],
      ['/collection', 'My Collection'],
      ['/portfolio', 'Portfolio'],
      [`/portfolio/card/${portfolioCardId}`, 'Charizard'],
      [`/card/${cardId}`, ''],
      [`/submit-card/${cardId}`, 'Submit Card for Professional Grading'],
      ['/import', 'Ultra-Fast Bulk Import'],
      ['/feedback', 'Share Your Feedback'],
      ['/settings', 'Settings'],
      ['/profile', ''],
      ['/no-such-page', '404 Page Not Found'],
    ];
    const failures: string[] = [];
    for (const [route, heading] of routes) {
      await page.goto(route);
      if (heading) await page.getByRole('heading', { name: heading }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const { width, culprits } = await sidewaysScroll(page);
      if (width > phone.width) failures.push(`${route}: scroll width ${width}\n    ${culprits.join('\n    ')}`);
      await keepScreenshot(page, { path: `${shots}/${route.replace(/[^a-z0-9]+/gi, '-')}.png`, fullPage: true });
    }
    expect(failures).toEqual([]);
    // Signed out too: the sign-in page.
    await page.context().clearCookies();
    await page.goto('/auth');
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    expect((await sidewaysScroll(page)).width).toBeLessThanOrEqual(phone.width);
  });

  test('the collection shows two columns', async () => {
    const page = await session.newPage(phone);
    await page.goto('/collection');
    const restoring = page.waitForResponse('**/api/restore-sample-cards', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Restore Sample Cards' }).click();
    await restoring;
    const tiles = page.getByTestId('collection-card');
    await tiles.nth(1).waitFor();
    const [first, second] = [(await tiles.nth(0).boundingBox())!, (await tiles.nth(1).boundingBox())!];
    expect(Math.round(second.y)).toBe(Math.round(first.y));
    expect(second.x).toBeGreaterThan(first.x + first.width - 1);
    expect(second.x + second.width).toBeLessThanOrEqual(phone.width);
    expect((await sidewaysScroll(page)).width).toBeLessThanOrEqual(phone.width);
    await keepScreenshot(page, { path: `${shots}/collection-two-columns.png` });
    await checkA11y(page, 'collection-phone-two-columns');
  });

  for (const [label, viewport] of [
    ['phone', phone],
    ['desktop', desktop],
  ] as const) {
    test(`the enlarged picture's toolbar is one line on ${label}`, async () => {
      const page = await session.newPage(viewport);
      const cardId = await gradedCardId(page);
      await page.goto(`/card/${cardId}`);
      await page.getByRole('button', { name: /^Enlarge/ }).first().click();
      const toolbar = page.getByTestId('picture-viewer-toolbar');
      await toolbar.waitFor();
      const bar = (await toolbar.boundingBox())!;
      // One line: no taller than its buttons with their padding, and within the screen.
      expect(bar.height).toBeLessThan(60);
      expect(bar.x + bar.width).toBeLessThanOrEqual(viewport.width);
      for (const name of ['Zoom out', 'Zoom in', 'Fit to screen', 'Actual size (100%)', 'Close']) {
        const box = (await page.getByRole('dialog').getByRole('button', { name, exact: true }).boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(bar.y);
        expect(box.y + box.height).toBeLessThanOrEqual(bar.y + bar.height);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      }
      await keepScreenshot(page, { path: `${shots}/viewer-${label}.png` });
      await checkA11y(page, `viewer-toolbar-${label}`);
    });
  }

  for (const [label, viewport] of [
    ['phone', phone],
    ['small phone', { width: 320, height: 640 }],
  ] as const) {
    test(`the measured picture's labels keep clear of each other and inside the picture, listed under it, on a ${label}`, async () => {
      const page = await session.newPage(viewport);
      const cardId = await gradedCardId(page, '3-whitened-corner.jpg');
      const card = (await (await page.request.get(`/api/card/${cardId}`)).json()) as { measurements: { front: { defects: unknown[] } } };
      await page.goto(`/card/${cardId}`);
      const map = page.getByTestId('measured-map').first();
      await map.waitFor();
      await expect.poll(() => map.locator('img').evaluate((img: HTMLImageElement) => img.complete && getComputedStyle(img).visibility === 'visible')).toBe(true);
      const frame = (await map.boundingBox())!;
      const markers = await map.getByTestId('measured-map-marker').locator('circle[r="3.4"]').all();
      expect(markers.length).toBe(card.measurements.front.defects.length);
      const boxes = await Promise.all(markers.map(async (marker) => (await marker.boundingBox())!));
      for (const [i, box] of boxes.entries()) {
        expect(box.x).toBeGreaterThanOrEqual(frame.x - 0.5);
        expect(box.y).toBeGreaterThanOrEqual(frame.y - 0.5);
        expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
        expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height + 0.5);
        // Big enough to read: a marker at least 16 px across.
        expect(box.width).toBeGreaterThanOrEqual(16);
        for (const other of boxes.slice(i + 1)) {
          const apart = Math.hypot(box.x - other.x, box.y - other.y);
          expect(apart).toBeGreaterThanOrEqual(box.width);
        }
      }
      // What they mean, in text under the picture, one line per number.
      const legend = page.getByTestId('measured-map-legend').first();
      expect(await legend.getByRole('listitem').count()).toBe(card.measurements.front.defects.length);
      const scroll = await sidewaysScroll(page);
      expect(scroll.width, scroll.culprits.join('\n')).toBeLessThanOrEqual(viewport.width);
      await keepScreenshot(map, { path: `${shots}/measured-map-${label.replace(' ', '-')}.png` });
      await keepScreenshot(page, { path: `${shots}/measured-map-page-${label.replace(' ', '-')}.png` });
      await checkA11y(page, `measured-map-${label.replace(' ', '-')}`);
      // The engine's own picture a tap away, enlarged.
      await page.getByRole('button', { name: /^Enlarge/ }).first().click();
      const src = await page.getByRole('dialog').getByRole('img').getAttribute('src');
      expect(src).toContain('/api/images/');
    });
  }
});
