import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { launchBrowser } from './support/browser.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Issue 35, item 4: the result's actions are where the grade is (beside it on a desktop, in a bar held at the bottom
// of a phone's screen), and a stranger who opens a shared card is offered only sharing it and grading their own.

const session = useBrowserSession();
const shots = '/tmp/shots-result-actions';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string, fullPage = false) => keepScreenshot(page, { path: `${shots}/${name}.png`, fullPage });
const frontPhoto = path.join(fileURLToPath(SAMPLE_CARDS_DIR), '1-gem-mint.jpg');
const OWNER_ACTIONS = ['Submit for Professional Grading', 'Share', 'Save to Collection', 'Grade Another Card'];

async function gradeThroughPage(page: Page): Promise<string> {
  await page.goto('/');
  await page.setInputFiles('#front-image', frontPhoto);
  await page.getByRole('button', { name: 'Grade Card' }).click();
  await page.getByTestId('overall-grade').waitFor({ timeout: 60_000 });
  return new URL(page.url()).pathname.split('/').pop()!;
}

const actionNames = (page: Page) =>
  page.getByRole('navigation', { name: 'Card actions' }).locator('a, button').evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText.trim()));

describe('the actions on the result screen', () => {
  test('on a desktop they sit beside the grade, in the first screen', async () => {
    const page = await session.newPage(desktop);
    await gradeThroughPage(page);
    const actions = page.getByRole('navigation', { name: 'Card actions' });
    expect(await actionNames(page)).toEqual(OWNER_ACTIONS);
    const grade = (await page.getByTestId('overall-grade').boundingBox())!;
    for (const name of OWNER_ACTIONS) {
      const box = (await actions.getByText(name, { exact: true }).boundingBox())!;
      // Seen without scrolling, beside the grade they act on (within a couple of hundred pixels of it).
      expect(box.y + box.height).toBeLessThanOrEqual(desktop.height);
      expect(Math.abs(box.y - grade.y)).toBeLessThan(250);
      expect(box.x).toBeGreaterThanOrEqual(grade.x - 40);
    }
    await shot(page, 'desktop-result');
    await checkA11y(page, 'result-actions-desktop');
  });

  test('on a phone they stay in a bar at the bottom of the screen, all the way down', async () => {
    const page = await session.newPage(phone);
    await gradeThroughPage(page);
    expect(await actionNames(page)).toEqual(OWNER_ACTIONS);
    const bar = page.getByRole('navigation', { name: 'Card actions' });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeGreaterThan(phone.height * 3);
    for (const at of [0, 0.33, 0.66]) {
      await page.evaluate((y) => window.scrollTo(0, y), Math.round(height * at));
      const box = (await bar.boundingBox())!;
      expect(Math.round(box.y + box.height)).toBe(phone.height);
      expect(box.height).toBeLessThan(phone.height / 5);
      for (const name of OWNER_ACTIONS) expect(await bar.getByText(name, { exact: true }).isVisible()).toBe(true);
    }
    await shot(page, 'phone-result-mid');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'result-actions-phone');
  });
});

describe('a shared card', () => {
  for (const [label, viewport] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    test(`offers a stranger only sharing it and grading their own, on ${label}`, async () => {
      const owner = await session.newPage(viewport);
      const id = await gradeThroughPage(owner);
      // The one who graded it, opening its link, may still submit it.
      await owner.goto(`/card/${id}`);
      await owner.getByTestId('overall-grade').waitFor();
      expect(await actionNames(owner)).toEqual(['Submit for Professional Grading', 'Share', 'Go to Collection', 'Grade Another Card']);

      const stranger = await launchBrowser(session.baseUrl);
      try {
        const view = await stranger.context.newPage();
        await view.setViewportSize(viewport);
        await view.goto(`/card/${id}`);
        await view.getByTestId('overall-grade').waitFor();
        expect(await actionNames(view)).toEqual(['Share', 'Grade Another Card']);
        expect(await view.getByText('Submit for Professional Grading').count()).toBe(0);
        expect(await view.getByText('Go to Collection').count()).toBe(0);
        await keepScreenshot(view, { path: `${shots}/shared-stranger-${label}.png` });
        await checkA11y(view, `shared-card-stranger-${label}`);
        await view.getByRole('link', { name: 'Grade Another Card' }).click();
        await view.waitForURL((url) => url.pathname === '/');
      } finally {
        await stranger.close();
      }
    });
  }
});
