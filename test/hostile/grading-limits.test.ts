import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePhoto, startCardsApp, startPhotoServer, type CardsHarness } from '../http/cards-harness.ts';
import { finished, upload, workbook } from '../imports/imports-harness.ts';

// Grading is the costly call (issue 20): guests are limited per address, signed-in users per account with a higher
// limit; the 429 says when to retry (Retry-After and the message), and a guest is told signing in raises it. Rows of
// a bulk import count against the same daily limit (issue 11).

const GUEST_PER_MINUTE = 3;
const USER_PER_MINUTE = 5;
const USER_PER_DAY = 6;

describe('grading limits', () => {
  let harness: CardsHarness;
  beforeAll(async () => {
    harness = await startCardsApp('pglite', { GRADE_LIMIT_GUEST_PER_MINUTE: String(GUEST_PER_MINUTE), GRADE_LIMIT_USER_PER_MINUTE: String(USER_PER_MINUTE), GRADE_LIMIT_USER_PER_DAY: String(USER_PER_DAY) });
  });
  afterAll(async () => harness?.close());

  // A request without a photo costs nothing to refuse, and still counts: the limit stands before any work.
  const noPhoto = [['cardType', 'pokemon']] as Array<[string, string]>;

  it('a guest gets the minute\'s allowance, then a 429 that says when to retry and suggests signing in', async () => {
    const guest = harness.browser();
    for (let n = 0; n < GUEST_PER_MINUTE; n++) expect((await guest.grade(noPhoto)).statusCode).toBe(400);
    const refused = await guest.grade(noPhoto);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'grading_rate_limited' });
    expect(refused.json().error).toMatch(/try again in \d+ seconds, or sign in for a higher limit/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('a signed-in user has a higher limit of their own', async () => {
    const { browser } = await harness.registered();
    for (let n = 0; n < USER_PER_MINUTE; n++) expect((await browser.grade(noPhoto)).statusCode).toBe(400);
    const refused = await browser.grade(noPhoto);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).not.toMatch(/sign in/);
  });

  it("an import's rows count against the daily limit: past it, rows fail with the limit's message", async () => {
    const photos = await startPhotoServer({ 'one.jpg': await samplePhoto(1), 'two.jpg': await samplePhoto(2), 'three.jpg': await samplePhoto(3) });
    try {
      const { browser } = await harness.registered();
      // Five of the day's six gradings used on the grade screen.
      for (let n = 0; n < USER_PER_MINUTE; n++) expect((await browser.grade(noPhoto)).statusCode).toBe(400);
      const file = workbook(['one', 'two', 'three'].map((name) => [`${photos.origin}/${name}.jpg`, '', '']));
      const started = await upload(browser, { bytes: file, filename: 'cards.xlsx' });
      expect(started.statusCode, started.body).toBe(200);
      const record = await finished(harness, browser, started.json().importId);
      expect(record).toMatchObject({ status: 'completed', totalCards: 3, successfulCards: 1, failedCards: 2 });
      const failed = await harness.database.db.selectFrom('import_cards').select('error_message').where('import_id', '=', started.json().importId).where('status', '=', 'failed').execute();
      for (const { error_message } of failed) expect(error_message).toMatch(/^You have reached your daily grading limit of 6 cards, so this card was not graded\. Retry the failed rows in \d+ hours\.$/);
    } finally {
      await photos.close();
    }
  });
});
