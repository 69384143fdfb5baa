import fs from 'node:fs';
import path from 'node:path';
import type { CardResult, CollectionCard, LeaderboardEntry } from '../../src/contracts/cards.ts';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { OFF_CENTRE_SCRATCHED, syntheticCardFile, tempDir, useFakeVisionModel, y4mFrame } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { launchWithFakeCamera } from './support/browser.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi, slowDown } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

const model = useFakeVisionModel();
const session = useBrowserSession();

const gradeButton = (page: Page) => page.getByRole('button', { name: 'Grade Card' });
// Screenshots of the result screen for a person to look at go to /tmp/shots-result, not into the repository.
const shots = '/tmp/shots-result';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string, fullPage = true) => keepScreenshot(page, { path: `${shots}/${name}.png`, fullPage });
const json = async <T,>(page: Page, url: string) => (await (await page.request.get(url)).json()) as T;

/** The measured picture on the result screen, and the zoom shown in the viewer. */
const picture = (page: Page) => page.getByRole('button', { name: /^Enlarge/ }).first();
const zoom = async (page: Page) => Number((await page.getByRole('dialog').getByText(/^\d+%$/).innerText()).replace('%', ''));

/** Opens the enlarged view and checks it fills the screen at the picture's own resolution, with zoom and pan. */
async function checkViewer(page: Page, name: string, viewport: { width: number; height: number }) {
  await picture(page).click();
  const dialog = page.getByRole('dialog');
  const image = dialog.getByRole('img');
  // The viewer hides the picture until its load handler has measured it and fitted it to the screen; `complete`
  // turns true a moment before that handler runs, so a key pressed then would be undone by the fit.
  await image.waitFor({ state: 'visible' });
  const box = (await dialog.boundingBox())!;
  expect([Math.round(box.width), Math.round(box.height)]).toEqual([viewport.width, viewport.height]);
  await shot(page, `${name}-enlarged`, false);
  await checkA11y(page, `${name}-enlarged`);

  // Keyboard: 1 is the picture's own resolution (one picture pixel a CSS pixel), + and - step, 0 fits.
  await page.keyboard.press('1');
  await expect.poll(() => zoom(page)).toBe(100);
  const natural = await image.evaluate((img: HTMLImageElement) => img.naturalWidth);
  // The picture eases to its new size.
  await expect.poll(async () => Math.round((await image.boundingBox())!.width)).toBe(natural);
  await page.keyboard.press('+');
  await expect.poll(() => zoom(page)).toBe(125);
  // Arrows pan once the picture is wider than the screen.
  for (let step = 0; step < 8 && (await image.boundingBox())!.width <= viewport.width; step++) await page.keyboard.press('+');
  const before = (await image.boundingBox())!;
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await image.boundingBox())!.x).toBeLessThan(before.x);
  // Wheel and buttons.
  await page.mouse.move(viewport.width / 2, viewport.height / 2);
  await page.mouse.wheel(0, -400);
  await expect.poll(() => zoom(page)).toBeGreaterThan(125);
  await dialog.getByRole('button', { name: 'Fit to screen' }).click();
  await expect.poll(() => zoom(page)).toBeLessThanOrEqual(100);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}


/** "3.6 / 2.4 mm" on the centering panel → [3.6, 2.4]. */
async function bordersShown(page: Page, side: 'front' | 'back', axis: 'Left / Right' | 'Top / Bottom'): Promise<[number, number, string]> {
  const row = page.getByTestId(`centering-${side}`).locator('div').filter({ hasText: axis });
  const text = await row.innerText();
  const match = /(\d+\.\d) \/ (\d+\.\d) mm\s*(\d+\/\d+)/.exec(text);
  if (!match) throw new Error(`no borders in "${text}"`);
  return [Number(match[1]), Number(match[2]), match[3]!];
}

/** Drops a file on `target` the way a browser does: dragover, then drop with the file in the DataTransfer. */
async function dropFile(page: Page, target: string, name: string, type: string, bytes: Buffer) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, type, base64 }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type }));
      return transfer;
    },
    { name, type, base64: bytes.toString('base64') },
  );
  await page.dispatchEvent(target, 'dragover', { dataTransfer });
  await page.dispatchEvent(target, 'drop', { dataTransfer });
}

describe('Top Graders', () => {
  test('shows five skeleton rows while loading, then says there is no data yet', async () => {
    const page = await session.newPage();
    await slowDown(page, '/api/leaderboard', 1000);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Top Graders' }).waitFor();
    await expect.poll(() => page.getByTestId('leaderboard-skeleton').count()).toBe(5);
    await page.getByText('No data available yet').waitFor();
    expect(await page.getByTestId('leaderboard-skeleton').count()).toBe(0);
  });

  test('a failed load is said inline and as a toast', async () => {
    const page = await session.newPage();
    await page.route('**/api/leaderboard', (route) => route.abort('connectionfailed'));
    await page.goto('/');
    await page.getByText('Failed to load leaderboard data', { exact: true }).first().waitFor();
    await expectToast(page, 'Error', 'Failed to load leaderboard data');
  });
});

describe('grading on the home page', () => {
  test('Grade Card waits for a front image: a file in Upload Files, a non-blank URL in Paste URLs', async () => {
    const page = await session.newPage();
    const front = await syntheticCardFile('enable-front.jpg', {}, 11);
    await page.goto('/');
    await page.getByRole('tab', { name: 'Upload Files', selected: true }).waitFor();
    expect(await gradeButton(page).isDisabled()).toBe(true);

    await page.setInputFiles('#front-image', front.file);
    await page.getByRole('img', { name: 'Front image preview' }).waitFor();
    expect(await gradeButton(page).isEnabled()).toBe(true);
    await checkA11y(page, 'home-preview');
    await page.getByRole('button', { name: 'Remove front image' }).click();
    await page.getByText('Drop an image here or click to browse').first().waitFor();
    expect(await page.getByRole('img', { name: 'Front image preview' }).count()).toBe(0);
    expect(await gradeButton(page).isDisabled()).toBe(true);

    // Dropped on the drop area: an image is taken, anything else is refused.
    await dropFile(page, 'label[for="front-image"]', 'notes.txt', 'text/plain', Buffer.from('not an image'));
    await expectToast(page, 'Invalid File Type');
    expect(await gradeButton(page).isDisabled()).toBe(true);
    await dropFile(page, 'label[for="front-image"]', 'dropped.jpg', 'image/jpeg', Buffer.from(front.bytes));
    await page.getByRole('img', { name: 'Front image preview' }).waitFor();
    await page.getByText('dropped.jpg').waitFor();
    expect(await gradeButton(page).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Remove front image' }).click();

    // A back alone is not enough.
    await page.setInputFiles('#back-image', front.file);
    await page.getByRole('img', { name: 'Back image preview' }).waitFor();
    expect(await gradeButton(page).isDisabled()).toBe(true);
    // Change opens the file chooser for that side.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Change back image' }).click();
    await (await chooser).setFiles(front.file);

    await page.getByRole('tab', { name: 'Paste URLs' }).click();
    expect(await gradeButton(page).isDisabled()).toBe(true);
    await page.getByLabel('Front image URL').fill('   ');
    expect(await gradeButton(page).isDisabled()).toBe(true);
    await page.getByLabel('Front image URL').fill('https://example.com/card.jpg');
    expect(await gradeButton(page).isEnabled()).toBe(true);
    await checkA11y(page, 'home-paste-urls');

    // Each tab keeps what was put in it.
    await page.getByRole('tab', { name: 'Upload Files' }).click();
    await page.getByRole('img', { name: 'Back image preview' }).waitFor();
    expect(await gradeButton(page).isDisabled()).toBe(true);
  });

  test('a photo with no card in it is refused with the server’s words, and the form stays', async () => {
    const page = await session.newPage();
    const blank = await syntheticCardFile('no-card.jpg', { variant: 'no-card' }, 12);
    await page.goto('/');
    await page.setInputFiles('#front-image', blank.file);
    const answer = page.waitForResponse('**/api/grade-card');
    await gradeButton(page).click();
    const body = (await (await answer).json()) as { error: string; code: string };
    expect(body.code).toBe('no_card_found');
    await expectToast(page, 'Error', body.error);
    await page.getByRole('img', { name: 'Front image preview' }).waitFor();
    expect(await gradeButton(page).isEnabled()).toBe(true);
  });

  test('a guest grades a generated card from files and sees the result with its measurements', async () => {
    model.identifyAs({
      cardName: 'Charizard',
      cardSet: 'Base Set',
      cardNumber: '4/102',
      rarity: 'holo',
      cardFacts: 'A Fire-type Pokémon.\n\nPSA population: 121 PSA 10 copies graded.\n\nIllustrated by Mitsuhiro Arita.',
      setDescription: 'The first English set, 1999.',
      estimatedValueUsd: 350,
      psa10ValueUsd: 2400,
    });
    const front = await syntheticCardFile('guest-front.jpg', OFF_CENTRE_SCRATCHED, 13);
    // At 10 px/mm the back is small in its photo: the result says so in a photo hint.
    const back = await syntheticCardFile('guest-back.jpg', { pxPerMm: 10, photo: { noise: 2 } }, 14);

    const page = await session.newPage();
    await page.goto('/');
    await page.setInputFiles('#front-image', front.file);
    await page.setInputFiles('#back-image', back.file);
    await slowDown(page, '/api/grade-card', 2500);
    const answer = page.waitForResponse('**/api/grade-card');
    await gradeButton(page).click();
    await page.getByRole('heading', { name: 'Analyzing Card' }).waitFor();
    await page.getByText('examining your card\'s centering, corners, edges and surface').waitFor();
    await checkA11y(page, 'analyzing-card');
    const result = (await (await answer).json()) as CardResult;
    await page.unroute('**/api/grade-card');

    // What the engine measured is what was drawn: 3.6 / 2.4 mm sides, a 15 mm scratch.
    const centering = result.measurements.front.centering;
    if (!centering.measurable) throw new Error('front centering not measured');
    expect(centering.leftMm).toBeCloseTo(3.6, 0);
    expect(Math.abs(centering.horizontal.worstShare - 60)).toBeLessThanOrEqual(1.5);
    const scratch = result.measurements.front.defects.find((d) => d.kind === 'scratch');
    expect(scratch?.sizeMm).toBeGreaterThan(13.5);
    expect(scratch?.sizeMm).toBeLessThan(16.5);

    // The screen shows those figures.
    await page.getByRole('heading', { level: 1, name: 'Charizard' }).waitFor();
    expect(await page.getByTestId('overall-grade').innerText()).toBe(result.overallGrade.toFixed(1));
    await page.getByText(result.labels.overall, { exact: true }).first().waitFor();
    await page.getByText(result.centeringVerdict, { exact: true }).waitFor();
    await page.getByText(result.condition, { exact: true }).first().waitFor();
    const [left, right, ratio] = await bordersShown(page, 'front', 'Left / Right');
    // The ratio in the order of the sides, as PSA writes it (the engine's puts the wider first): the left's share first.
    const inSideOrder = (ratio: string, first: number, second: number) => (first >= second ? ratio : ratio.split('/').reverse().join('/'));
    expect([left, right, ratio]).toEqual([Number(centering.leftMm.toFixed(1)), Number(centering.rightMm.toFixed(1)), inSideOrder(centering.horizontal.ratio, centering.leftMm, centering.rightMm)]);
    expect((await bordersShown(page, 'front', 'Top / Bottom'))[2]).toBe(inSideOrder(centering.vertical.ratio, centering.topMm, centering.bottomMm));
    await page.getByTestId('centering-back').waitFor();

    for (const key of ['centering', 'corners', 'edges', 'surface'] as const) {
      const row = await page.getByTestId(`subgrade-${key}`).innerText();
      expect(row).toContain(result.grades[key]!.toFixed(1));
      expect(row).toContain(result.labels[key]!);
      expect(row).toContain(`Front ${result.frontGrades![key]!.toFixed(1)} · Back ${result.backGrades![key]!.toFixed(1)}`);
    }
    for (const grader of ['psa', 'bgs', 'cgc'] as const) {
      expect(await page.getByTestId(`ceiling-${grader}`).innerText()).toContain(result.centeringCeilings[grader].text.replace(/^(PSA|BGS|CGC) /, ''));
    }
    const defects = await page.getByTestId('defects-front').innerText();
    expect(defects).toContain(`Scratch · ${scratch!.sizeMm.toFixed(1)} mm long`);
    // The format found from the card's outline, whose millimetres every measure is in (issue 30).
    expect(defects).toContain('Card format: Standard (Pokémon, Magic, modern sports), 63 × 88 mm.');
    expect(await page.getByTestId('defects-front').getByRole('list', { name: /defects found$/ }).getByRole('listitem').count()).toBe(result.measurements.front.defects.length);
    // Graded from one photo, without a tilt shot: the surface says what it could not see (issue 31).
    expect(await page.getByTestId('defects-front').getByRole('list', { name: 'What the front photos could not show' }).innerText()).toContain(
      'From one photo: scratches that show only in reflected light are not seen',
    );
    await page.getByText(`${Math.round(result.confidence * 100)}%`, { exact: true }).waitFor();
    expect(result.photoHints.some((hint) => hint.startsWith('Back: '))).toBe(true);
    expect(await page.getByRole('list', { name: 'Photo hints' }).getByRole('listitem').allInnerTexts()).toEqual(result.photoHints);
    await page.getByText(result.conditionAnalysis).waitFor();

    // Who the card is and what it may be worth, with who says so; no PSA population paragraph.
    expect(await page.getByTestId('estimated-value').innerText()).toContain('$350.00');
    expect(await page.getByTestId('estimated-value').innerText()).toContain('estimate by fake-vision, not market data');
    expect(await page.getByTestId('psa10-value').innerText()).toContain('$2,400.00');
    await page.getByText('Illustrated by Mitsuhiro Arita.').waitFor();
    expect(await page.getByText('PSA population').count()).toBe(0);
    await page.getByText('The first English set, 1999.').waitFor();
    // The model's answer checked against the catalogue: the catalogue's set name and card (base1-4).
    await page.getByText('Base · #4/102 · Pokemon').waitFor();
    expect(await page.getByTestId('catalog-match').innerText()).toMatch(/^base1-4 \(match confidence \d+%\)$/);

    // The rarity badge: hover lights the sparkles, a click toggles them.
    const rarity = page.getByRole('button', { name: /^Rarity: Holo/ });
    expect(await rarity.getAttribute('aria-pressed')).toBe('false');
    await rarity.hover();
    expect(await rarity.getAttribute('aria-pressed')).toBe('true');
    await rarity.click();
    expect(await rarity.getAttribute('aria-pressed')).toBe('false');

    // The measured picture first; the photo a click away; both sides; a click enlarges.
    const picture = page.getByRole('tabpanel').getByRole('img').first();
    expect(await picture.getAttribute('src')).toBe(result.annotatedImageUrl);
    await page.getByRole('radio', { name: 'Photo' }).click();
    expect(await picture.getAttribute('src')).toBe(result.imageUrl);
    await page.getByRole('tab', { name: 'Back' }).click();
    expect(await page.getByRole('tabpanel').getByRole('img').first().getAttribute('src')).toBe(result.backImageUrl);
    await page.getByRole('radio', { name: 'Measured' }).click();
    await page.getByRole('tabpanel').getByRole('button', { name: /Enlarge/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Back of Charizard' });
    expect(await dialog.getByRole('img').getAttribute('src')).toBe(result.annotatedBackImageUrl);
    expect(await dialog.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await checkA11y(page, 'result-enlarged');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await checkA11y(page, 'result');

    expect(await page.getByRole('link', { name: 'Submit for Professional Grading' }).getAttribute('href')).toBe(`/submit-card/${result.id}`);

    await page.setViewportSize(phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'result-phone');

    // Grade Another Card clears the result and the images.
    await page.getByRole('button', { name: 'Grade Another Card' }).click();
    await page.getByRole('heading', { name: 'Grade a card' }).waitFor();
    expect(await page.getByRole('img', { name: 'Front image preview' }).count()).toBe(0);
    expect(await gradeButton(page).isDisabled()).toBe(true);

    // The same photos again are the same card; Save to Collection sends them once more and goes to the collection.
    await page.setInputFiles('#front-image', front.file);
    await page.setInputFiles('#back-image', back.file);
    const again = page.waitForResponse('**/api/grade-card');
    await gradeButton(page).click();
    expect(((await (await again).json()) as CardResult).id).toBe(result.id);
    await slowDown(page, '/api/grade-card', 800);
    const saved = page.waitForResponse('**/api/grade-card');
    await page.getByRole('button', { name: 'Save to Collection' }).click();
    await page.getByRole('button', { name: 'Saving Card...' }).waitFor();
    expect(((await (await saved).json()) as CardResult).id).toBe(result.id);
    await expectToast(page, 'Card Saved', 'Your graded card has been saved to your collection.');
    await page.waitForURL((url) => url.pathname === '/collection');
    await page.getByText("You're browsing Collection without an account. Your data won't be saved permanently").waitFor();
    await expect.poll(() => page.getByTestId('collection-card').getByRole('heading').allInnerTexts()).toEqual(['Charizard']);
  });
});

// Issue 18, a result people can trust: grading is not saving (an unsaved grade is in neither the collection nor the
// leaderboard, yet its /card/{id} page works; saved, it is in both, once), and the result screen reads at a glance
// (focus and announcement, the BGS-style figure explained, the condition once, a full-screen zoomable picture).
describe('the result screen and saving', () => {
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

// Issue 17, the camera and refusals in place: Chromium's fake camera shows a drawn card, the frame check finds it in
// the guide and takes the photo by itself, the grade's address can be shared; a photo with the card cut off is
// refused beside the photo, with what the engine found drawn on it, until another photo is chosen.
describe('the camera, refusals in place, and sharing', () => {
  test('the fake camera shows a drawn card: found in the guide, captured by itself, graded; its address shows the same grade without cookies', async () => {
    // A webcam's 1280×720 frame with the card filling the guide (80% of the height) on a dark table.
    const { bytes } = await syntheticCardFile('camera-front.jpg', { borders: { leftMm: 3, rightMm: 3, topMm: 3, bottomMm: 3 }, photo: { noise: 2 } }, 71);
    const card = await sharp(bytes).resize({ height: 576 }).toBuffer();
    const { data, info } = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#2f3e46' } })
      .composite([{ input: card, gravity: 'centre' }])
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const video = path.join(tempDir, 'camera-front.y4m');
    fs.writeFileSync(video, y4mFrame(data, info.width, info.height));
    model.identifyAs({ cardName: 'Snorlax', cardSet: 'Jungle', cardNumber: '11/64', rarity: 'holo', estimatedValueUsd: 40 });

    const browser = await launchWithFakeCamera(video);
    try {
      for (const [viewport, name] of [[phone, 'phone'], [desktop, 'desktop']] as const) {
        const context = await browser.newContext({ baseURL: session.baseUrl, viewport, permissions: ['camera'] });
        const page = await context.newPage();
        page.setDefaultTimeout(20_000);
        await page.goto('/');
        await page.getByRole('tab', { name: 'Take Photo' }).click();
        const view = page.getByTestId('camera-view');
        await expect.poll(() => page.getByLabel('Camera preview').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 20_000 }).toBe(1280);
        await shot(page, `camera-${name}`);
        await checkA11y(page, `camera-${name}`);
        // Steady in the guide: the front is taken without a press.
        await page.getByRole('img', { name: 'Captured front' }).waitFor();
        const checkMs = Number(await view.getAttribute('data-check-ms'));
        console.log(`frame check (${name}): ${checkMs.toFixed(2)} ms per frame`);
        expect(checkMs).toBeGreaterThan(0);
        await shot(page, `camera-captured-${name}`);

        const answer = page.waitForResponse('**/api/grade-card');
        await gradeButton(page).click();
        const result = (await (await answer).json()) as CardResult;
        await page.getByRole('heading', { level: 1, name: 'Snorlax' }).waitFor();
        await page.waitForURL((url) => url.pathname === `/card/${result.id}`);
        await page.getByRole('button', { name: 'Share' }).waitFor();
        await shot(page, `shared-result-${name}`);
        // Back leaves the result for a new, empty grade screen.
        await page.goBack();
        await page.waitForURL((url) => url.pathname === '/');
        await gradeButton(page).waitFor();
        expect(await page.getByRole('heading', { level: 1, name: 'Snorlax' }).count()).toBe(0);
        await context.close();

        // The address, opened by someone else: the same grade.
        const stranger = await browser.newContext({ baseURL: session.baseUrl, viewport });
        const other = await stranger.newPage();
        await other.goto(`/card/${result.id}`);
        await other.getByRole('heading', { level: 1, name: 'Snorlax' }).waitFor();
        expect(await other.getByTestId('overall-grade').innerText()).toBe(result.overallGrade.toFixed(1));
        await stranger.close();
      }
    } finally {
      await browser.close();
    }
  });

  test('a card cut off by the photo’s edge: refused beside the photo with the outline and figures, still there ten seconds later, gone with another photo', async () => {
    const cut = await syntheticCardFile('cut-off.jpg', { variant: 'cut-off', photo: { noise: 2 } }, 72);
    const whole = await syntheticCardFile('whole.jpg', { photo: { noise: 2 } }, 73);
    for (const viewport of [desktop, phone]) {
      const page = await session.newPage(viewport);
      await page.goto('/');
      await page.setInputFiles('#front-image', cut.file);
      await gradeButton(page).click();
      const refusal = page.getByTestId('refusal');
      await refusal.waitFor();
      expect(await refusal.getAttribute('data-code')).toBe('card_cut_off');
      await refusal.getByRole('heading', { name: 'Front photo not graded' }).waitFor();
      expect(await refusal.getByTestId('refusal-cut').innerText()).toMatch(/right edge/);
      await refusal.getByText('For the retake:').waitFor();
      // The user's own photo with what the engine found drawn over it.
      expect(await refusal.locator('svg').count()).toBeGreaterThan(0);
      await shot(page, `refusal-${viewport.width}`);
      await checkA11y(page, `refusal-${viewport.width}`);
      if (viewport === desktop) {
        await page.waitForTimeout(10_000);
        expect(await refusal.isVisible()).toBe(true);
      }
      await page.setInputFiles('#front-image', whole.file);
      await refusal.waitFor({ state: 'detached' });
    }
  });
});
