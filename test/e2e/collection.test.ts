import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { CardResult, CollectionCard } from '../../src/contracts/cards.ts';
import { gradeThroughApi, OFF_CENTRE_SCRATCHED, syntheticCardFile, useFakeVisionModel, useImageServer } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { launchBrowser } from './support/browser.ts';
import { phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi, slowDown } from './support/ui.ts';

// The image server runs on loopback, which the server refuses to fetch from unless told it is a test.
process.env.ALLOW_LOOPBACK_IMAGE_URLS = 'true';
const images = useImageServer();
const model = useFakeVisionModel();
const session = useBrowserSession();

const CSV_HEADER = [
  'Card Name',
  'Set',
  'Card Number',
  'Type',
  'Rarity',
  'Overall Grade',
  'Overall Centering',
  'Overall Condition',
  'Centering',
  'Corners',
  'Edges',
  'Surface',
  'Estimated Value',
  'PSA 10 Value',
  'Condition Analysis',
  'Card Facts',
  'COMC ID',
  'Date Added',
];

/** RFC 4180: quoted cells may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** What a spreadsheet must not run: a cell starting with =, +, - or @ gets an apostrophe in front. */
const neutralised = (value: string) => (/^[=+\-@]/.test(value) ? `'${value}` : value);
const grade = (value: number | null) => (value === null ? '' : value.toFixed(1));
const localDate = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

function expectedCsvRow(card: CollectionCard): string[] {
  return [
    neutralised(card.cardName),
    neutralised(card.cardSet ?? ''),
    card.cardNumber ?? '',
    'Pokemon',
    card.rarity ?? '',
    grade(card.overallGrade),
    card.grades.centering === null ? 'Centering Not Measurable' : card.grades.centering >= 8.5 ? 'Good Centering' : 'Poor Centering',
    // The analysis opens with the condition: "Near Mint, overall 9.6: …".
    card.conditionAnalysis!.split(',')[0]!,
    grade(card.grades.centering),
    grade(card.grades.corners),
    grade(card.grades.edges),
    grade(card.grades.surface),
    card.estimatedValue ?? 'N/A',
    card.psa10Value ?? 'N/A',
    card.conditionAnalysis ?? '',
    card.cardFacts ?? '',
    card.comcId ?? '',
    localDate(card.createdAt),
  ];
}

async function myCards(page: Page): Promise<CollectionCard[]> {
  return (await (await page.request.get('/api/my-cards')).json()) as CollectionCard[];
}

const shownNames = (page: Page) => page.getByTestId('collection-card').getByRole('heading').allInnerTexts();
const countLine = (page: Page) => page.getByTestId('collection-count').innerText();

async function choose(page: Page, menu: string, option: string) {
  await page.getByRole('combobox', { name: menu }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const BLASTOISE = '=HYPERLINK("http://evil.example","Blastoise")';

describe('collection', () => {
  test('a signed-in user grades from a URL, saves, finds, filters, sorts, exports, shares and deletes the card', async () => {
    const page = await session.newPage();
    await registerThroughApi(page, session.baseUrl, newAccount('Misty'));
    // Grading earns achievements, whose notification may cover a control for a few seconds: closed as a person would.
    // Several may be earned at once; they come one at a time.
    await page.addLocatorHandler(
      page.getByTestId('achievement-notification'),
      async (notification) => {
        while (await notification.isVisible()) await notification.getByRole('button', { name: 'Close' }).click({ timeout: 2000 }).catch(() => undefined);
      },
      { noWaitAfter: true },
    );

    // An empty collection.
    await page.goto('/collection');
    await page.getByRole('heading', { name: 'My Collection', level: 1 }).waitFor();
    await page.getByText('Your saved card grades and analysis').waitFor();
    await page.getByRole('heading', { name: 'No cards found' }).waitFor();
    await page.getByText("You haven't added any cards to your collection yet.").waitFor();
    expect(await page.getByRole('link', { name: 'Grade a Card' }).getAttribute('href')).toBe('/');
    await page.getByRole('button', { name: 'Restore Sample Cards' }).waitFor();
    expect(await page.getByRole('button', { name: 'Export' }).isDisabled()).toBe(true);
    // Signed in: no guest banner. The built-in provider has no instant grades to sync, and says so.
    expect(await page.getByText("You're browsing Collection without an account").count()).toBe(0);
    await checkA11y(page, 'collection-empty');
    await slowDown(page, '/api/sync-instant-grades', 800);
    const synced = page.waitForResponse('**/api/sync-instant-grades');
    await page.getByRole('button', { name: 'Sync' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sync' }).isDisabled()).toBe(true);
    const { message } = (await (await synced).json()) as { message: string };
    await expectToast(page, 'Success', message);
    expect(await page.getByRole('button', { name: 'Sync' }).isEnabled()).toBe(true);

    // Two cards graded earlier, one of them with a name and a set a spreadsheet would run as formulas.
    model.identifyAs({ cardName: 'Pikachu', cardSet: 'Jungle', cardNumber: '60/64', rarity: 'common', estimatedValueUsd: 12.5 });
    await gradeThroughApi(page, session.baseUrl, { front: (await syntheticCardFile('pikachu.jpg', { photo: { noise: 2 } }, 21)).bytes });
    model.identifyAs({ cardName: BLASTOISE, cardSet: '@Base Set', cardNumber: '2/102', rarity: 'rare', estimatedValueUsd: 180 });
    const worn = { defects: [{ kind: 'whitened-corner' as const, corner: 'topLeft' as const, lengthMm: 2.5 }, { kind: 'nick' as const, edge: 'left' as const, atMm: 40, depthMm: 1 }] };
    await gradeThroughApi(page, session.baseUrl, { front: (await syntheticCardFile('blastoise.jpg', worn, 22)).bytes });

    // Charizard from a URL, through the upload card.
    model.identifyAs({ cardName: 'Charizard', cardSet: 'Base Set', cardNumber: '4/102', rarity: 'holo', estimatedValueUsd: 350 });
    const charizardUrl = images.host('charizard.jpg', (await syntheticCardFile('charizard.jpg', OFF_CENTRE_SCRATCHED, 23)).bytes);
    await page.goto('/');
    await page.getByRole('tab', { name: 'Paste URLs' }).click();
    await page.getByLabel('Front image URL').fill(`  ${charizardUrl}  `);
    const graded = page.waitForResponse('**/api/grade-card');
    await page.getByRole('button', { name: 'Grade Card' }).click();
    const charizard = (await (await graded).json()) as CardResult;
    await page.getByRole('heading', { level: 1, name: 'Charizard' }).waitFor();
    expect(charizard.measurements.back).toBeUndefined();
    expect(await page.getByRole('tab', { name: 'Back' }).count()).toBe(0);
    expect(await page.getByTestId('overall-grade').innerText()).toBe(charizard.overallGrade.toFixed(1));

    await page.getByRole('button', { name: 'Save to Collection' }).click();
    await expectToast(page, 'Card Saved', 'Your graded card has been saved to your collection.');
    await page.waitForURL((url) => url.pathname === '/collection');

    // Newest first.
    const cards = await myCards(page);
    expect(cards.map((c) => c.cardName)).toEqual(['Charizard', BLASTOISE, 'Pikachu']);
    // The collection's code and cards may still be on their way right after the URL changed (seen under a loaded CPU).
    await expect.poll(() => shownNames(page)).toEqual(['Charizard', BLASTOISE, 'Pikachu']);
    expect(await countLine(page)).toBe('3 cards shown');
    await page.getByText('Showing 1-3 of 3 cards').waitFor();
    const tile = page.getByTestId('collection-card').filter({ hasText: 'Charizard' });
    expect(await tile.getByRole('link').getAttribute('href')).toBe(`/card/${charizard.id}`);
    const tileText = await tile.innerText();
    for (const part of ['Base · #4/102', 'Holo', charizard.overallGrade.toFixed(1), '$350.00', 'Graded on']) expect(tileText).toContain(part);
    await checkA11y(page, 'collection-grid');

    // Search: name or set, any case.
    await page.getByLabel('Search cards').fill('CHAR');
    await expect.poll(() => countLine(page)).toBe('1 card shown of 3 total');
    expect(await shownNames(page)).toEqual(['Charizard']);
    await page.getByLabel('Search cards').fill('jungle');
    await expect.poll(() => shownNames(page)).toEqual(['Pikachu']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => countLine(page)).toBe('3 cards shown');
    expect(await page.getByLabel('Search cards').inputValue()).toBe('');
    await page.getByLabel('Search cards').fill('nothing like this');
    await page.getByText('No cards match your search criteria.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();

    // Price bands, then a grade band, which replaces the price band.
    await choose(page, 'Price filter', '$150 – $500');
    await expect.poll(() => shownNames(page)).toEqual(['Charizard', BLASTOISE]);
    expect(await countLine(page)).toBe('2 cards shown of 3 total');
    await choose(page, 'Price filter', '$0 – $50');
    await expect.poll(() => shownNames(page)).toEqual(['Pikachu']);
    const pikachu = cards.find((c) => c.cardName === 'Pikachu')!;
    const bands = [
      { label: 'Grade 0 – 7', min: 0, max: 7 },
      { label: 'Grade 7 – 8.5', min: 7, max: 8.5 },
      { label: 'Grade 8.5 – 9.5', min: 8.5, max: 9.5 },
      { label: 'Grade 9.5 – 10', min: 9.5, max: 10 },
    ];
    const band = bands.find((b) => pikachu.overallGrade >= b.min && pikachu.overallGrade <= b.max)!;
    await choose(page, 'Grade filter', band.label);
    const inBand = cards.filter((c) => c.overallGrade >= band.min && c.overallGrade <= band.max).map((c) => c.cardName);
    await expect.poll(() => shownNames(page)).toEqual(inBand);
    expect(await page.getByRole('combobox', { name: 'Price filter' }).innerText()).toBe('All prices');
    expect(new URL(page.url()).searchParams.has('price')).toBe(false);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => countLine(page)).toBe('3 cards shown');

    // Sorts.
    await choose(page, 'Sort', 'Value: high to low');
    await expect.poll(() => shownNames(page)).toEqual(['Charizard', BLASTOISE, 'Pikachu']);
    await choose(page, 'Sort', 'Value: low to high');
    await expect.poll(() => shownNames(page)).toEqual(['Pikachu', BLASTOISE, 'Charizard']);
    await choose(page, 'Sort', 'Grade: high to low');
    const byGrade = [...cards].sort((a, b) => b.overallGrade - a.overallGrade || b.createdAt.localeCompare(a.createdAt)).map((c) => c.cardName);
    await expect.poll(() => shownNames(page)).toEqual(byGrade);
    await choose(page, 'Sort', 'Oldest first');
    await expect.poll(() => shownNames(page)).toEqual(['Pikachu', BLASTOISE, 'Charizard']);

    // The list view.
    await page.getByRole('radio', { name: 'List view' }).click();
    const table = page.getByRole('table');
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Card', 'Grade', 'Centering', 'Corners', 'Edges', 'Surface', 'Value', 'Actions']);
    expect(await page.getByTestId('collection-row').count()).toBe(3);
    await checkA11y(page, 'collection-list');
    await page.setViewportSize(phone);
    expect(await table.getByRole('columnheader', { name: 'Corners' }).isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'collection-list-phone');
    await page.getByRole('radio', { name: 'Grid view' }).click();
    await checkA11y(page, 'collection-grid-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // CSV export, row by row, newest first.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`my-card-collection-${localDate(new Date().toISOString())}.csv`);
    await expectToast(page, 'Export Complete', 'Exported 3 cards to CSV file.');
    const csv = fs.readFileSync(await file.path(), 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(csv.slice(1));
    expect(rows[0]).toEqual(CSV_HEADER);
    expect(rows.slice(1)).toEqual(cards.map(expectedCsvRow));
    expect(rows[2]![0]).toBe(`'${BLASTOISE}`);
    expect(rows[2]![1]).toBe("'@Base Set");

    // The shared link, opened by someone who is not signed in.
    const stranger = await launchBrowser(session.baseUrl);
    try {
      const view = await stranger.context.newPage();
      await slowDown(view, `/api/card/${charizard.id}`, 800);
      await view.goto(`/card/${charizard.id}`);
      await view.getByText('Loading shared card...').waitFor();
      await view.getByRole('heading', { level: 1, name: 'Charizard' }).waitFor();
      expect(await view.getByTestId('overall-grade').innerText()).toBe(charizard.overallGrade.toFixed(1));
      expect(await view.getByTestId('estimated-value').innerText()).toContain('$350.00');
      await checkA11y(view, 'shared-card');
      // A picture that cannot be loaded any more.
      await view.route('**/api/images/**', (route) => route.abort('connectionfailed'));
      await view.reload();
      await view.getByText('Image not available').waitFor();
      await view.getByText('The marketplace image may have expired.').waitFor();
      await view.getByRole('link', { name: 'Grade Another Card' }).click();
      await view.waitForURL((url) => url.pathname === '/');
      await view.getByRole('heading', { name: 'Grade a card' }).waitFor();

      // Deleted, after a confirmation; the shared link then finds nothing.
      await page.getByRole('radio', { name: 'Grid view' }).waitFor();
      await tile.hover();
      await tile.getByRole('button', { name: 'Delete Charizard' }).click();
      const question = page.getByRole('alertdialog');
      await question.getByText('Are you sure you want to delete this card from your collection?').waitFor();
      await checkA11y(page, 'collection-delete');
      await question.getByRole('button', { name: 'Cancel' }).click();
      expect(await page.getByTestId('collection-card').count()).toBe(3);
      await tile.hover();
      await tile.getByRole('button', { name: 'Delete Charizard' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, 'Card deleted', 'Card deleted from your collection');
      await expect.poll(() => countLine(page)).toBe('2 cards shown');
      expect((await myCards(page)).map((c) => c.cardName)).toEqual([BLASTOISE, 'Pikachu']);

      await view.goto(`/card/${charizard.id}`);
      await view.getByRole('heading', { name: 'Card not found' }).waitFor();
      await expectToast(view, 'Error', 'Failed to load the shared card');
      await checkA11y(view, 'shared-card-not-found');
    } finally {
      await stranger.close();
    }
  });

  test('Top Graders lists collectors by cards graded, with medals for the first three', async () => {
    const page = await session.newPage();
    model.identifyAs({ cardName: 'Vulpix', cardSet: 'Base Set' });
    const photo = (await syntheticCardFile('leader.jpg', { photo: { noise: 2 } }, 41)).bytes;
    for (const name of ['Ash', 'Gary', 'Tracey']) {
      await page.context().clearCookies();
      await registerThroughApi(page, session.baseUrl, newAccount(name));
      await gradeThroughApi(page, session.baseUrl, { front: photo });
    }
    // The leaderboard is an asynchronous projection.
    type Entry = { id: string; username: string; cardCount: number };
    const leaders = async () => (await (await page.request.get('/api/leaderboard')).json()) as Entry[];
    await expect.poll(async () => (await leaders()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    const entries = await leaders();

    await page.goto('/');
    const rows = page.getByRole('list', { name: 'Top Graders' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(entries.length);
    const texts = await rows.allTextContents();
    const medals = ['Rank 1, Gold medal', 'Rank 2, Silver medal', 'Rank 3, Bronze medal'];
    entries.forEach((entry, i) => {
      expect(texts[i]).toContain(entry.username);
      expect(texts[i]).toContain(`${entry.cardCount} ${entry.cardCount === 1 ? 'card' : 'cards'}`);
      expect(texts[i]).toContain(medals[i] ?? `Rank ${i + 1}`);
    });
    await checkA11y(page, 'home-leaderboard');
  });

  test('a guest sees the notice and can restore the sample cards', async () => {
    const page = await session.newPage(phone);
    await page.goto('/collection');
    await page.getByText("You're browsing Collection without an account. Your data won't be saved permanently").waitFor();
    expect(await page.getByRole('link', { name: 'Sign in or create an account' }).getAttribute('href')).toBe('/auth?returnTo=%2Fcollection');
    await checkA11y(page, 'collection-guest-phone');
    const restoring = page.waitForResponse('**/api/restore-sample-cards', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Restore Sample Cards' }).click();
    const { message } = (await (await restoring).json()) as { message: string };
    await expectToast(page, 'Sample Cards Restored', message);
    await expect.poll(() => page.getByTestId('collection-card').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const restored = await myCards(page);
    expect(await countLine(page)).toBe(`${restored.length} ${restored.length === 1 ? 'card' : 'cards'} shown`);
  });
});
