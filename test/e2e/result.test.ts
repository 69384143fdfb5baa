import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { CardResult, CollectionCard, LeaderboardEntry } from '../../src/contracts/cards.ts';
import { OFF_CENTRE_SCRATCHED, syntheticCardFile, useFakeVisionModel } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';

// Issue 18, a result people can trust: grading is not saving (an unsaved grade is in neither the collection nor
// the leaderboard, yet its /card/{id} page works; saved, it is in both, once), and the result screen reads at a
// glance (focus and announcement, the BGS-style figure explained, the condition once, a full-screen zoomable
// picture). Screenshots for a person to look at go to /tmp/shots-result, not into the repository.

const model = useFakeVisionModel();
const session = useBrowserSession();
const shots = '/tmp/shots-result';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: `${shots}/${name}.png`, fullPage });

const json = async <T,>(page: Page, url: string) => (await (await page.request.get(url)).json()) as T;

/** The measured picture on the result screen, and the zoom shown in the viewer. */
const picture = (page: Page) => page.getByRole('button', { name: /^Enlarge/ }).first();
const zoom = async (page: Page) => Number((await page.getByRole('dialog').getByText(/^\d+%$/).innerText()).replace('%', ''));

/** Opens the enlarged view and checks it fills the screen at the picture's own resolution, with zoom and pan. */
async function checkViewer(page: Page, name: string, viewport: { width: number; height: number }) {
  await picture(page).click();
  const dialog = page.getByRole('dialog');
  const image = dialog.getByRole('img');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const box = (await dialog.boundingBox())!;
  expect([Math.round(box.width), Math.round(box.height)]).toEqual([viewport.width, viewport.height]);
  await shot(page, `${name}-enlarged`, false);
  await checkA11y(page, `${name}-enlarged`);

  // Keyboard: 1 is the picture's own resolution (one picture pixel a CSS pixel), + and - step, 0 fits.
  await page.keyboard.press('1');
  await expect.poll(() => zoom(page)).toBe(100);
  const natural = await image.evaluate((img: HTMLImageElement) => img.naturalWidth);
  expect(Math.round((await image.boundingBox())!.width)).toBe(natural);
  await page.keyboard.press('+');
  await expect.poll(() => zoom(page)).toBe(125);
  const before = (await image.boundingBox())!;
  // The picture at 125% is taller than the screen: the arrow moves down it.
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => (await image.boundingBox())!.y).toBeLessThan(before.y);
  // Wheel and buttons.
  await page.mouse.move(viewport.width / 2, viewport.height / 2);
  await page.mouse.wheel(0, -400);
  await expect.poll(() => zoom(page)).toBeGreaterThan(125);
  await dialog.getByRole('button', { name: 'Fit to screen' }).click();
  await expect.poll(() => zoom(page)).toBeLessThanOrEqual(100);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

describe('the result screen and saving (issue 18)', () => {
  test('a grade left unsaved is in neither the collection nor the leaderboard, yet its page works; saved, it is in both, once', async () => {
    model.identifyAs({ cardName: 'Gengar', cardSet: 'Fossil', cardNumber: '5/62', rarity: 'holo', estimatedValueUsd: 120 });
    const front = await syntheticCardFile('result-front.jpg', OFF_CENTRE_SCRATCHED, 41);
    const page = await session.newPage(desktop);
    await registerThroughApi(page, session.baseUrl, newAccount('Misty'));
    const me = await json<{ id: string }>(page, '/api/user');

    await page.goto('/');
    await page.setInputFiles('#front-image', front.file);
    const answer = page.waitForResponse('**/api/grade-card');
    await page.getByRole('button', { name: 'Grade Card' }).click();
    const result = (await (await answer).json()) as CardResult;
    const heading = page.getByRole('heading', { level: 1, name: 'Gengar' });
    await heading.waitFor();

    // Focus moves to the result's heading, and the result is announced.
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Graded: Gengar' }).innerText()).toContain(`overall grade ${result.overallGrade.toFixed(1)} out of 10`);

    // One overall grade; the BGS-style figure labelled and explained; the condition once.
    const summary = page.getByTestId('grade-summary');
    expect(await summary.getByTestId('overall-grade').innerText()).toBe(result.overallGrade.toFixed(1));
    expect(await summary.getByTestId('bgs-overall').innerText()).toBe(result.bgsOverall.toFixed(1));
    await summary.getByText('BGS-style estimate').waitFor();
    await summary.getByRole('button', { name: 'How the BGS-style estimate is worked out' }).focus();
    await page.getByRole('tooltip').filter({ hasText: 'lowest weighs most' }).first().waitFor();
    expect(await summary.getByText(result.condition, { exact: true }).count()).toBe(1);
    // The measured picture is shown at least 345 px wide, where its 22-px labels read at 12 px or more.
    expect((await picture(page).boundingBox())!.width).toBeGreaterThanOrEqual(345);
    await page.keyboard.press('Escape');
    await shot(page, 'result-desktop');
    await checkA11y(page, 'result-desktop');
    await checkViewer(page, 'result-desktop', desktop);

    // Not saved: Grade Another Card leaves nothing in the collection or on the leaderboard.
    await page.getByRole('button', { name: 'Grade Another Card' }).click();
    await page.goto('/collection');
    await page.getByRole('heading', { name: 'No cards found' }).waitFor();
    expect(await json<CollectionCard[]>(page, '/api/my-cards')).toEqual([]);
    expect((await json<LeaderboardEntry[]>(page, '/api/leaderboard')).find((entry) => entry.id === me.id)).toBeUndefined();
    // SPEC.md §5: no provider token (the built-in provider's marker is none), so Sync is disabled.
    expect(await page.getByRole('button', { name: 'Sync' }).isDisabled()).toBe(true);

    // Its page works, on a phone too.
    await page.setViewportSize(phone);
    await page.goto(`/card/${result.id}`);
    await heading.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    expect((await picture(page).boundingBox())!.width).toBeGreaterThanOrEqual(345);
    await shot(page, 'result-phone');
    await checkA11y(page, 'result-phone');
    await checkViewer(page, 'result-phone', phone);

    // Saved: the same photo again is the same card, and Save to Collection puts it in the collection and on the board.
    await page.setViewportSize(desktop);
    await page.goto('/');
    await page.setInputFiles('#front-image', front.file);
    const again = page.waitForResponse('**/api/grade-card');
    await page.getByRole('button', { name: 'Grade Card' }).click();
    expect(((await (await again).json()) as CardResult).id).toBe(result.id);
    await page.getByRole('button', { name: 'Save to Collection' }).click();
    await expectToast(page, 'Card Saved', 'Your graded card has been saved to your collection.');
    await page.waitForURL((url) => url.pathname === '/collection');
    await expect.poll(() => page.getByTestId('collection-card').getByRole('heading').allInnerTexts()).toEqual(['Gengar']);
    // Saving twice is one card.
    expect((await page.request.post(`/api/card/${result.id}/save`, { headers: { Origin: session.baseUrl } })).ok()).toBe(true);
    expect((await json<CollectionCard[]>(page, '/api/my-cards')).map((card) => card.id)).toEqual([result.id]);
    await expect.poll(async () => (await json<LeaderboardEntry[]>(page, '/api/leaderboard')).find((entry) => entry.id === me.id)?.cardCount, { timeout: 20_000 }).toBe(1);
  });
});
