import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { achievementProgressSchema, achievementSchema } from '../../src/contracts/cards.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, samplePhoto, startCardsApp, type CardsHarness } from './cards-harness.ts';

// Achievements through the real app: earned by the async achievements projection from graded cards,
// read and marked shown by their user only.

describe.each([await routeDatabaseKind()])('achievements API on %s', (kind) => {
  let h: CardsHarness;
  beforeAll(async () => {
    h = await startCardsApp(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('earns achievements from grading, and marks their notification shown for their user only', async () => {
    const { browser } = await h.registered();
    expect((await browser.get('/api/achievements')).json()).toEqual([]);

    // A gem-mint card, front and back.
    const gem = await samplePhoto(1);
    expect((await browser.grade([['frontImage', { bytes: gem }], ['backImage', { bytes: gem }]])).statusCode).toBe(200);
    await h.catchUp();
    const earned = ((await browser.get('/api/achievements')).json() as unknown[]).map((a) => achievementSchema.parse(a));
    expect(earned.map((a) => [a.achievementId, a.name, a.level, a.notificationShown])).toEqual([
      [1, 'First Grade', 'bronze', false],
      [5, 'Gem Hunter', 'silver', false],
      [6, 'Perfect Ten', 'gold', false],
      [7, 'Both Sides', 'bronze', false],
      [8, 'Dead Center', 'silver', false],
    ]);

    // Marked shown: seen so by the very next read, whatever the async lag; marking again is fine.
    for (let attempt = 0; attempt < 2; attempt++) {
      const marked = await browser.post('/api/mark-achievement-shown/5');
      expect(marked.statusCode).toBe(200);
      expect(marked.json()).toEqual({ message: 'Achievement marked as shown' });
    }
    const after = (await browser.get('/api/achievements')).json() as { achievementId: number; notificationShown: boolean }[];
    expect(after.filter((a) => a.notificationShown).map((a) => a.achievementId)).toEqual([5]);

    // Not earned, not in the catalogue, not a number: 404.
    await expectRefused(await browser.post('/api/mark-achievement-shown/4'), 404, 'achievement_not_found', 'Achievement not found');
    await expectRefused(await browser.post('/api/mark-achievement-shown/999'), 404, 'achievement_not_found');
    await expectRefused(await browser.post('/api/mark-achievement-shown/first'), 404, 'achievement_not_found');

    // Someone else cannot mark (or see) this user's achievements.
    const other = await h.registered();
    await expectRefused(await other.browser.post('/api/mark-achievement-shown/1'), 404, 'achievement_not_found');
    expect((await other.browser.get('/api/achievements')).json()).toEqual([]);
    expect(((await browser.get('/api/achievements')).json() as { achievementId: number; notificationShown: boolean }[]).find((a) => a.achievementId === 1)?.notificationShown).toBe(false);
  });

  it('lists every achievement, earned or locked, with progress', async () => {
    const { browser } = await h.registered();
    const before = ((await browser.get('/api/achievements/progress')).json() as unknown[]).map((a) => achievementProgressSchema.parse(a));
    expect(before).toHaveLength(12);
    expect(before.every((a) => !a.earned && a.earnedAt === null && a.current === 0)).toBe(true);
    expect(before.find((a) => a.name === 'Collector')).toMatchObject({ level: 'bronze', current: 0, target: 10 });

    expect((await browser.grade([['frontImage', { bytes: await samplePhoto(1) }]])).statusCode).toBe(200);
    await h.catchUp();
    const after = ((await browser.get('/api/achievements/progress')).json() as unknown[]).map((a) => achievementProgressSchema.parse(a));
    const byName = new Map(after.map((a) => [a.name, a]));
    expect(byName.get('First Grade')).toMatchObject({ earned: true, current: 1, target: 1 });
    expect(byName.get('First Grade')!.earnedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // Locked, one card of ten along.
    expect(byName.get('Collector')).toMatchObject({ earned: false, earnedAt: null, current: 1, target: 10 });
    // The same as the earned list says.
    const earned = ((await browser.get('/api/achievements')).json() as { achievementId: number }[]).map((a) => a.achievementId);
    expect(after.filter((a) => a.earned).map((a) => a.achievementId)).toEqual(earned.sort((a, b) => a - b));
  });

  it('needs a signed-in user', async () => {
    const guest = h.browser();
    await expectRefused(await guest.get('/api/achievements/progress'), 401, 'unauthorized');
    await expectRefused(await guest.get('/api/achievements'), 401, 'unauthorized');
    await expectRefused(await guest.post('/api/mark-achievement-shown/1'), 401, 'unauthorized');
  });
});
