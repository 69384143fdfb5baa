import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import type { PortfolioCard } from '../../src/contracts/portfolio.ts';
import { useFakeVisionModel, useImageServer } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Portfolio, Add Card(s), Paste URLs (issue 35, item 7), in Chromium at desktop and phone sizes: the pairing is shown
// as the URLs are typed, a line that is no web address blocks the send and says why, one URL that cannot be fetched
// is named with the server's reason, stays in the box to fix, and adds nothing; the pair that was analysed is added.

process.env.ALLOW_LOOPBACK_IMAGE_URLS = 'true';
const images = useImageServer();
const model = useFakeVisionModel();
const session = useBrowserSession();

fs.mkdirSync('/tmp/shots-portfolio', { recursive: true });
const samples = ['2-off-center.jpg', '3-whitened-corner.jpg'].map((name) => fs.readFileSync(new URL(name, SAMPLE_CARDS_DIR)));
const myPortfolio = async (page: Page) => (await (await page.request.get('/api/portfolio')).json()) as PortfolioCard[];

describe('Paste URLs', () => {
  test.each([
    ['desktop', desktop],
    ['phone', phone],
  ] as const)('on a %s: pairs as typed, names the URL that failed and why, keeps it, adds only what was analysed', async (name, viewport) => {
    const page = await session.newPage(viewport);
    await registerThroughApi(page, session.baseUrl, newAccount('Brock'));
    model.identifyAs({ cardName: 'Onix', cardSet: 'Base Set', cardNumber: '56/102', rarity: 'common', estimatedValueUsd: 1.5 });
    const front = images.host(`${name}-front.jpg`, samples[0]!);
    const back = images.host(`${name}-back.jpg`, samples[1]!);
    const gone = images.host(`${name}-gone.jpg`, samples[0]!).replace(`${name}-gone.jpg`, `${name}-not-there.jpg`);

    await page.goto('/portfolio');
    await page.getByRole('button', { name: 'Add Your First Card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Card(s)' });
    await dialog.getByRole('tab', { name: 'Paste URLs' }).click();
    const box = dialog.getByLabel('Image URLs, one per line');
    const pairs = dialog.getByTestId('url-pair');

    // The pairing follows the typing: two lines are one card's front and back; a third starts the next card.
    await box.fill(`${front}\n${back}`);
    await expect.poll(() => pairs.allInnerTexts()).toEqual([`Card 1\nFront (line 1): ${front}\nBack (line 2): ${back}`]);
    await box.fill(`${front}\n${back}\n\nnot a link\n${gone}`);
    await dialog.getByTestId('url-problems').getByText('Line 4 (not a link): Not a web address: it should start with http:// or https://.').waitFor();
    expect(await dialog.getByRole('button', { name: /^Analyze & Add/ }).isDisabled()).toBe(true);
    await dialog.getByText('Fix the line above first: nothing is sent until every line is a web address.').waitFor();
    await checkA11y(page, `portfolio-paste-urls-problem-${name}`);

    // Front and back on one line pair by hand; the lone URL after them is a card without a back.
    await box.fill(`${front} ${back}\n\n${gone}`);
    await expect.poll(() => pairs.allInnerTexts()).toEqual([`Card 1\nFront (line 1): ${front}\nBack (line 1): ${back}`, `Card 2\nFront (line 3): ${gone}\nNo back`]);
    await checkA11y(page, `portfolio-paste-urls-pairs-${name}`);
    await dialog.getByRole('button', { name: 'Analyze & Add 2 Cards' }).click();

    const failed = dialog.locator('[data-testid=bulk-item][data-status=error]');
    await failed.waitFor({ timeout: 60_000 });
    expect(await failed.innerText()).toBe(`Error analyzing Card 2\nFront: ${gone}\nThe image could not be downloaded: the server answered with HTTP 404.`);
    await dialog.getByTestId('bulk-outcome').filter({ hasText: 'Successfully analyzed and added 1 card(s) to your portfolio. 1 card was not added: see below.' }).waitFor();
    expect(await dialog.locator('[data-testid=bulk-item][data-status=complete]').innerText()).toBe('Onix');
    // What was typed stays but for the card that was added: the URL that failed is there to fix.
    expect(await box.inputValue()).toBe(gone);
    await checkA11y(page, `portfolio-paste-urls-failed-${name}`);
    await keepScreenshot(dialog, { path: `/tmp/shots-portfolio/paste-urls-failed-${name}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    // Still there after a few seconds: a failure is not cleared away like a success.
    await page.waitForTimeout(3_500);
    expect(await failed.count()).toBe(1);

    // Only the analysed card was added: no "Unanalyzed Card".
    const cards = await myPortfolio(page);
    expect(cards.map((c) => c.cardName)).toEqual(['Onix']);
    expect(cards[0]).toMatchObject({ cardNumber: '56/102' });

    // Fixed, the URL is added too, and the box empties.
    const fixed = images.host(`${name}-not-there.jpg`, samples[1]!);
    expect(fixed).toBe(gone);
    await dialog.getByRole('button', { name: 'Analyze & Add 1 Card' }).click();
    await dialog.getByTestId('bulk-outcome').filter({ hasText: 'Successfully analyzed and added 1 card(s) to your portfolio' }).waitFor({ timeout: 60_000 });
    await expect.poll(() => box.inputValue()).toBe('');
    expect((await myPortfolio(page)).map((c) => c.cardName)).toEqual(['Onix', 'Onix']);
  });
});
