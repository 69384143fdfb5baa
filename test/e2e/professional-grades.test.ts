import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accuracySchema } from '../../src/contracts/professional-grades.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { gradeThroughApi } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Issue 33 as a collector uses it: on the card's page, report the grade PSA gave (with a slab photo whose label
// verifies it, on a desktop; without one and then corrected, on a phone), see it beside the engine's estimate, and
// the public /accuracy page with the collector's own figures; axe-core on every screen.

const session = useBrowserSession();
const shots = '/tmp/shots-results';
fs.mkdirSync(shots, { recursive: true });
const screenshot = (page: Page, name: string) => keepScreenshot(page, { path: `${shots}/${name}.png`, fullPage: true });

/** A card in a PSA slab whose label the grading service reads as PSA 8, cert 70496954. */
const PSA_SLAB = { layout: 'psa', company: 'PSA', gradeText: 'NM-MT', grade: '8', cert: '70496954', year: '2005 POKEMON JAPANESE', name: 'MEW EX - HOLO', number: '#003', variety: 'HOLON PHANTOM' } as const;

const fitsWidth = async (page: Page, width: number) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

async function gradedCardPage(page: Page, seed: number): Promise<string> {
  await registerThroughApi(page, session.baseUrl, newAccount('Misty'));
  // At 12 px/mm, not the renderer's 20: any graded card will do here, and it is drawn and measured in a third of the time.
  const card = await gradeThroughApi(page, session.baseUrl, { front: await renderSyntheticCard({ pxPerMm: 12, photo: { noise: 2 } }, seed) });
  await page.goto(`/card/${card.id}`);
  await page.getByRole('heading', { name: 'Professional grade' }).waitFor();
  return card.id;
}

const reportForm = (page: Page) => page.getByRole('form', { name: 'Report a professional grade' });

describe('professional grades', () => {
  test('desktop: a grade reported with its slab photo is verified, shown beside the estimate, and counted on /accuracy', async () => {
    const page = await session.newPage(desktop);
    const cardId = await gradedCardPage(page, 41);
    await page.getByText('No professional grade reported for this card yet.').waitFor();
    await checkA11y(page, 'professional-grade-empty-desktop');

    const form = reportForm(page);
    await form.getByLabel('Company').selectOption('PSA');
    // PSA gives no 9.5: the list offers what the server takes.
    expect(await form.getByLabel('Grade', { exact: true }).locator('option').allInnerTexts()).not.toContain('9.5');
    await form.getByLabel('Grade', { exact: true }).selectOption('8');
    await form.getByLabel('Certification number').fill('70496954');
    const slab = await renderSyntheticCard({ pxPerMm: 12, borderColor: '#e8c33a', lettering: { name: 'Mew' }, photo: { noise: 2, slab: PSA_SLAB } }, 33);
    // The grade screen's styled drop zone, not a native "Choose File" control: the input itself is not drawn.
    await form.getByText('Drop an image here or click to browse').waitFor();
    expect(await form.getByLabel(/Slab photo/).evaluate((input) => input.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    await form.getByLabel(/Slab photo/).setInputFiles({ name: 'slab.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(slab) });
    await form.getByRole('img', { name: /Slab photo.*preview/ }).waitFor();
    await form.getByRole('button', { name: 'Report grade' }).click();
    await expectToast(page, 'Professional grade recorded', 'PSA 8, verified by the slab label');

    const current = page.getByTestId('professional-grade-current');
    await current.getByText('PSA 8').waitFor();
    await page.getByTestId('verified-badge').waitFor();
    expect(await current.innerText()).toMatch(/Engine’s estimate then\s+\d+(\.\d)?\s+(PSA estimate|Overall grade)/);
    await checkA11y(page, 'professional-grade-verified-desktop');
    await screenshot(page, 'card-professional-grade-desktop');

    // The public page counts it; its reporter also sees their own figures.
    await page.goto('/accuracy');
    await page.getByRole('heading', { name: 'How accurate are our grades?' }).waitFor();
    await page.getByTestId('my-accuracy').getByText('Your cards’ latest reports').waitFor();
    expect(await page.getByTestId('accuracy-weighting').innerText()).toMatch(/at most 5 reports/);
    const everyone = accuracySchema.parse(await (await page.request.get('/api/accuracy')).json());
    expect(everyone.overall.verified.reports).toBeGreaterThanOrEqual(1);
    await page.getByRole('table', { name: 'Every card’s latest report' }).waitFor();
    await checkA11y(page, 'accuracy-desktop');
    await screenshot(page, 'accuracy-desktop');

    // Someone else with the link sees the card, but no report and no form.
    // (Pages share one browser context: signing in as someone else signs this page out.)
    const stranger = await session.newPage(desktop);
    await registerThroughApi(stranger, session.baseUrl, newAccount('Brock'));
    await stranger.goto(`/card/${cardId}`);
    await stranger.getByRole('heading', { level: 1 }).waitFor();
    await stranger.waitForLoadState('networkidle');
    expect(await stranger.getByRole('heading', { name: 'Professional grade' }).count()).toBe(0);
  });

  test('phone: a grade reported without a photo, then corrected: the latest counts, the earlier is listed', async () => {
    const page = await session.newPage(phone);
    await gradedCardPage(page, 42);
    const form = reportForm(page);
    await form.getByLabel('Company').selectOption('BGS');
    await form.getByLabel('Grade', { exact: true }).selectOption('9.5');
    // A cert that is not one: refused on the form, nothing sent.
    await form.getByLabel('Certification number').fill('12');
    await form.getByRole('button', { name: 'Report grade' }).click();
    await page.getByText('A certification number is 4 to 20 letters').waitFor();
    await form.getByLabel('Certification number').fill('0012345678');
    await form.getByRole('button', { name: 'Report grade' }).click();
    await expectToast(page, 'Professional grade recorded', 'BGS 9.5');
    await page.getByTestId('professional-grade-current').getByText('BGS 9.5').waitFor();
    await page.getByText('Not verified', { exact: true }).waitFor();

    await form.getByLabel('Grade', { exact: true }).selectOption('9');
    await form.getByRole('button', { name: 'Correct the grade' }).click();
    await page.getByTestId('professional-grade-current').getByText('BGS 9', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Earlier reports (superseded)' }).waitFor();
    await page.getByText(/BGS 9\.5, cert 0012345678/).waitFor();
    await fitsWidth(page, phone.width);
    await checkA11y(page, 'professional-grade-corrected-phone');
    await screenshot(page, 'card-professional-grade-phone');

    await page.goto('/accuracy');
    await page.getByTestId('my-accuracy').getByText('Your cards’ latest reports').waitFor();
    await fitsWidth(page, phone.width);
    await checkA11y(page, 'accuracy-phone');
    await screenshot(page, 'accuracy-phone');
  });
});
