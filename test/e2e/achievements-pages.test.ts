import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { AchievementProgress, CollectionCard } from '../../src/contracts/cards.ts';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Issue 35, item 10: /achievements (earned and locked badges, with progress), /leaderboard (all of it), and the
// profile's badges and stats, at desktop and phone sizes.

const session = useBrowserSession();
const shots = '/tmp/shots-achievements-pages';
fs.mkdirSync(shots, { recursive: true });

/** Saves a sample photo to the signed-in collection (the grading call with only the file saves, SPEC.md §7). */
async function saveCard(page: Page, sample: string): Promise<void> {
  const response = await page.request.post('/api/grade-card', {
    headers: { Origin: session.baseUrl },
    multipart: { frontImage: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(new URL(sample, SAMPLE_CARDS_DIR)) } },
  });
  if (!response.ok()) throw new Error(`saving failed: ${response.status()} ${await response.text()}`);
}

/** Waits for the async achievements projection to have earned First Grade. */
async function firstGradeEarned(page: Page): Promise<AchievementProgress[]> {
  let progress: AchievementProgress[] = [];
  await expect
    .poll(async () => {
      progress = (await (await page.request.get('/api/achievements/progress')).json()) as AchievementProgress[];
      return progress.find((a) => a.name === 'First Grade')?.earned;
    }, { timeout: 20_000 })
    .toBe(true);
  return progress;
}

describe('achievements, leaderboard and profile', () => {
  test('a guest is sent to sign in for /achievements, and may see /leaderboard', async () => {
    const page = await session.newPage();
    await page.goto('/achievements');
    await page.waitForURL((url) => url.pathname === '/auth' && url.searchParams.get('returnTo') === '/achievements');
    await page.goto('/leaderboard');
    await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
    expect(await page.getByRole('heading', { name: '404 Page Not Found' }).count()).toBe(0);
  });

  for (const [label, viewport] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    test(`earned and locked badges with progress, the full leaderboard and the profile's stats, on ${label}`, async () => {
      const page = await session.newPage(viewport);
      const account = newAccount(label === 'phone' ? 'Pia' : 'Dan');
      await registerThroughApi(page, session.baseUrl, account);
      await saveCard(page, '2-off-center.jpg');
      await saveCard(page, '4-scratched.jpg');
      const progress = await firstGradeEarned(page);
      const cards = (await (await page.request.get('/api/my-cards')).json()) as CollectionCard[];
      expect(cards).toHaveLength(2);

      await page.goto('/achievements');
      await page.getByRole('heading', { name: 'Achievements', level: 1 }).waitFor();
      const earned = progress.filter((a) => a.earned);
      await page.getByText(`${earned.length} of ${progress.length} earned`).waitFor();
      const earnedSection = page.getByRole('region', { name: /^Earned/ });
      const lockedSection = page.getByRole('region', { name: /^Locked/ });
      await earnedSection.getByRole('heading', { name: 'First Grade' }).waitFor();
      expect(await earnedSection.getByTestId('achievement').count()).toBe(earned.length);
      expect(await lockedSection.getByTestId('achievement').count()).toBe(progress.length - earned.length);
      // Locked, with how far along: two cards of ten.
      const collector = lockedSection.getByTestId('achievement').filter({ hasText: 'Collector' });
      await collector.getByText('2 of 10').waitFor();
      expect(await collector.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('20');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await keepScreenshot(page, { path: `${shots}/achievements-${label}.png`, fullPage: true });
      await checkA11y(page, `achievements-${label}`);

      // The full leaderboard, reached from the home page's Top Graders.
      await page.goto('/');
      await page.getByRole('link', { name: 'See the full leaderboard' }).click();
      await page.waitForURL((url) => url.pathname === '/leaderboard');
      await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
      const board = await (await page.request.get('/api/leaderboard?limit=100')).json() as { username: string }[];
      await expect.poll(() => page.getByRole('list', { name: 'Leaderboard' }).getByRole('listitem').count()).toBe(board.length);
      expect(board.length).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await keepScreenshot(page, { path: `${shots}/leaderboard-${label}.png`, fullPage: true });
      await checkA11y(page, `leaderboard-${label}`);

      // The profile: stats over the saved cards, the badges earned, and the way to all of them.
      await page.goto('/profile');
      const stats = page.getByTestId('grading-stats');
      await stats.getByText('Cards graded').waitFor();
      const grades = cards.map((card) => card.overallGrade);
      const average = grades.reduce((sum, grade) => sum + grade, 0) / grades.length;
      await expect.poll(() => stats.innerText()).toContain('2');
      const text = (await stats.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain(`Average grade ${average.toFixed(1)}`);
      expect(text).toContain(`Best grade ${Math.max(...grades).toFixed(1)}`);
      expect(text).toContain('Cards graded 2');
      const badges = page.getByRole('list', { name: 'Badges earned' }).getByRole('listitem');
      await badges.first().waitFor();
      expect(await badges.allInnerTexts()).toEqual(earned.map((a) => a.name));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await keepScreenshot(page, { path: `${shots}/profile-${label}.png`, fullPage: true });
      await checkA11y(page, `profile-badges-${label}`);
      await page.getByRole('link', { name: 'See all achievements' }).click();
      await page.waitForURL((url) => url.pathname === '/achievements');
    });
  }
});
