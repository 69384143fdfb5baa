import fs from 'node:fs';
import * as XLSX from '@e965/xlsx';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { useImageServer } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';

// Bulk import as a person does it, in Chromium: the toasts for no file and a wrong file, the template downloaded and
// filled with rows pointing at a loopback image server (card photos, broken URLs, a repeat), the upload, the bar
// fed by /ws reaching 100% without ever going back, the completion toast, the history's counts, the cards in the
// collection and the portfolio (both read again in the page after the import), delete; axe-core on each screen.

process.env.ALLOW_LOOPBACK_IMAGE_URLS = 'true';
const images = useImageServer();
const session = useBrowserSession();

const samples = ['1-gem-mint.jpg', '2-off-center.jpg', '3-whitened-corner.jpg', '4-scratched.jpg'].map((name) => fs.readFileSync(new URL(name, SAMPLE_CARDS_DIR)));

/** Every value the progress bar takes, from now on, in the order it takes them. */
async function recordBar(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { barValues: number[] }).barValues = seen;
    const read = () => {
      const bar = document.querySelector('[role="progressbar"]');
      const value = bar?.getAttribute('aria-valuenow');
      if (value !== null && value !== undefined && seen.at(-1) !== Number(value)) seen.push(Number(value));
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  return () => page.evaluate(() => (window as unknown as { barValues: number[] }).barValues);
}

describe('bulk import', () => {
  test('template, upload, live progress to 100%, history, and the cards in the collection and the portfolio', async () => {
    const page = await session.newPage();
    await registerThroughApi(page, session.baseUrl, newAccount('Brock'));
    // The collection and the portfolio are loaded first, so the import must refresh them in the page.
    await page.goto('/collection');
    await page.getByRole('heading', { name: 'No cards found' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Portfolio', exact: true }).click();
    await page.getByRole('heading', { name: 'No cards found' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Import', exact: true }).click();

    await page.getByRole('heading', { name: 'Ultra-Fast Bulk Import', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'New Import' }).waitFor();
    await page.getByRole('tab', { name: 'Import History (0)' }).waitFor();
    await checkA11y(page, 'import-new');

    await page.getByRole('button', { name: 'Start Import' }).click();
    await expectToast(page, 'No File Selected', 'Please select a file to upload.');
    await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'cards.txt', mimeType: 'text/plain', buffer: Buffer.from('FrontImage\n') });
    await expectToast(page, 'Invalid File Type', 'Please upload an Excel file (.xlsx, .xls) or CSV file');

    // The template, filled in: four photos, a repeat, two broken links and a row that is not a URL.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Template' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('card-import-template.xlsx');
    await expectToast(page, 'Template Downloaded');
    const book = XLSX.read(fs.readFileSync(await download.path()), { type: 'buffer' });
    const sheet = book.Sheets[book.SheetNames[0]!]!;
    const header = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })[0]!;
    expect(header).toEqual(['FrontImage', 'BackImage', 'ItemID']);
    const urls = samples.map((bytes, i) => images.host(`import-card-${i + 1}.jpg`, bytes)) as [string, string, string, string];
    const rows = [
      [urls[0], urls[1], 'COMC-77'],
      [urls[2], '', ''],
      [urls[3], '', 'SKU-4'],
      [urls[2], '', ''],
      [urls[0].replace('import-card-1', 'gone-1'), '', ''],
      [urls[0].replace('import-card-1', 'gone-2'), '', ''],
      ['see attached photo', '', ''],
    ];
    XLSX.utils.sheet_add_aoa(sheet, rows, { origin: 'A2' });
    const filled = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;

    await page.getByTestId('import-drop-zone').waitFor();
    await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'my-binder.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: filled });
    await page.getByTestId('import-file-name').filter({ hasText: 'my-binder.xlsx' }).waitFor();
    const barValues = await recordBar(page);
    await page.getByRole('button', { name: 'Start Import' }).click();

    await page.getByTestId('import-percent').filter({ hasText: '100%' }).waitFor({ timeout: 30_000 });
    await expectToast(page, 'Import Complete', '3 cards graded, 1 duplicate, 3 failed.');
    const values = await barValues();
    expect(values.at(-1)).toBe(100);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]!);
    await page.getByTestId('import-stage').filter({ hasText: 'Completed' }).waitFor();
    await page.getByTestId('import-processed').filter({ hasText: '7 / 7' }).waitFor();
    await checkA11y(page, 'import-done');

    // The history, read again after the import.
    await page.getByRole('tab', { name: 'Import History (1)' }).click();
    const item = page.getByRole('list', { name: 'Imports' }).getByRole('listitem').first();
    await item.getByRole('heading', { name: 'my-binder.xlsx' }).waitFor();
    await item.getByText('Completed', { exact: true }).waitFor();
    const counts = await item.locator('dl > div').allInnerTexts();
    expect(counts.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['Total 7', 'Successful 3', 'Failed 3', 'Duplicates 1']);
    await checkA11y(page, 'import-history');

    // The collection and the portfolio, already loaded in this page, show the new cards.
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Collection', exact: true }).click();
    await expect.poll(() => page.getByTestId('collection-card').count()).toBe(3);
    await page.getByText('COMC-77').first().waitFor();
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Portfolio', exact: true }).click();
    await expect.poll(() => page.getByTestId('portfolio-row').count()).toBe(3);

    // Delete from the history.
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('tab', { name: 'Import History (1)' }).click();
    await page.getByRole('button', { name: 'Delete import my-binder.xlsx' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Import Deleted');
    await page.getByRole('tab', { name: 'Import History (0)' }).waitFor();
  }, 120_000);

  test('a guest is sent to sign in', async () => {
    const page = await session.newPage();
    await page.goto('/import');
    await page.waitForURL(/\/auth\?returnTo=%2Fimport/);
  });
});
