import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFeedbackCommand } from '../../scripts/feedback.ts';
import { feedbackEntrySchema, feedbackSubmittedResponseSchema } from '../../src/contracts/feedback.ts';
import { feedbackProjection } from '../../src/projections/feedback/feedback-projection.ts';
import { findFeedback, listFeedback } from '../../src/projections/feedback/queries.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, multipartBody, samplePhoto, startCardsApp, type Browser, type CardsHarness, type FormParts } from '../http/cards-harness.ts';

// POST /api/feedback through the real app (multipart, sessions, Origin check, rate limits, event store, inline
// projection, image store), and the operators' `npm run feedback` on the same database.

const GUEST_LIMIT = 3;

describe.each([await routeDatabaseKind()])('feedback on %s', (kind) => {
  let h: CardsHarness;
  beforeAll(async () => {
    h = await startCardsApp(kind, { FEEDBACK_LIMIT_GUEST_PER_HOUR: String(GUEST_LIMIT), FEEDBACK_LIMIT_USER_PER_HOUR: '100' });
  });
  afterAll(async () => {
    await h?.close();
  });

  const send = (browser: Browser, parts: FormParts) => browser.grade(parts, '/api/feedback');
  const count = async () => (await listFeedback(h.database.db)).length;
  async function storedImages(): Promise<number> {
    const files = await readdir(h.config.imagesDir, { recursive: true }).catch(() => []);
    return files.filter((f) => /[0-9a-f]{64}$/.test(String(f))).length;
  }

  it('records a signed-in user\'s feedback with its picture, status new', async () => {
    const { browser, user } = await h.registered();
    const photo = await samplePhoto(2);
    const response = await send(browser, [
      ['name', 'Grace Hopper'],
      ['email', 'grace@example.com'],
      ['category', 'bug'],
      ['feedbackText', '  Centering reads 60/40 on my card, I measure 55/45.  '],
      ['image', { bytes: photo, type: 'image/jpeg', filename: 'card.jpg' }],
    ]);
    expect(response.statusCode).toBe(201);
    const { feedback, message } = feedbackSubmittedResponseSchema.parse(response.json());
    expect(message).toBe('Thank you for your feedback!');
    const { id } = feedback;

    const entry = feedbackEntrySchema.parse(await findFeedback(h.database.db, id));
    expect(feedback).toEqual(entry);
    expect(entry).toMatchObject({
      id,
      userId: user.id,
      name: 'Grace Hopper',
      email: 'grace@example.com',
      category: 'bug',
      status: 'new',
      feedbackText: 'Centering reads 60/40 on my card, I measure 55/45.',
    });
    // The picture is served at its URL, byte for byte.
    const image = await browser.get(entry.imageUrl!);
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(photo)).toBe(true);
  });

  it('takes a guest\'s feedback without name, email, category or picture', async () => {
    const response = await send(h.browser(), [['feedbackText', 'Nice app']]);
    expect(response.statusCode).toBe(201);
    const entry = await findFeedback(h.database.db, response.json().feedback.id);
    expect(entry).toMatchObject({ userId: null, name: null, email: null, category: 'general', status: 'new', imageUrl: null, feedbackText: 'Nice app' });
  });

  it('refuses what SPEC.md refuses, with its words, and keeps nothing', async () => {
    const { browser } = await h.registered();
    const before = { rows: await count(), images: await storedImages() };
    await expectRefused(await send(browser, [['feedbackText', '   ']]), 400, 'invalid_request', 'feedbackText: Please provide your feedback before submitting.');
    await expectRefused(await send(browser, [['name', 'x']]), 400, 'invalid_request', 'feedbackText: Please provide your feedback before submitting.');
    // Judged by its bytes: a text file called a PNG is not an image.
    const text = Buffer.from('this is not a picture at all, only words');
    await expectRefused(
      await send(browser, [['feedbackText', 'see attached'], ['image', { bytes: text, type: 'image/png', filename: 'shot.png' }]]),
      415,
      'feedback_image_invalid',
      'Please select an image file (JPG, PNG, etc.)',
    );
    // A JPEG's first bytes and then 5 MB and one byte more.
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0x20);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    await expectRefused(
      await send(browser, [['feedbackText', 'see attached'], ['image', { bytes: big, type: 'image/jpeg', filename: 'big.jpg' }]]),
      413,
      'feedback_image_too_large',
      'Image must be smaller than 5MB',
    );
    await expectRefused(await send(browser, [['feedbackText', 'x'], ['category', 'praise']]), 400, 'invalid_request');
    await expectRefused(await send(browser, [['feedbackText', 'x'], ['email', 'nobody']]), 400, 'invalid_request', 'email: Please enter a valid email');
    await expectRefused(await send(browser, [['feedbackText', 'x'], ['rating', '5']]), 400, 'unexpected_field');
    await expectRefused(await browser.post('/api/feedback', { feedbackText: 'as JSON' }), 415, 'multipart_required');
    // Another site cannot send feedback in this browser's name.
    const { body, contentType } = await multipartBody([['feedbackText', 'forged']]);
    const forged = await browser.send({ method: 'POST', url: '/api/feedback', headers: { 'content-type': contentType, origin: 'https://evil.example' }, payload: body });
    expect(forged.statusCode).toBe(403);
    expect({ rows: await count(), images: await storedImages() }).toEqual(before);
  });

  it('limits a guest per address and says when to try again', async () => {
    const guest = h.browser();
    for (let i = 0; i < GUEST_LIMIT; i++) expect((await send(guest, [['feedbackText', `note ${i}`]])).statusCode).toBe(201);
    const refused = await send(guest, [['feedbackText', 'one too many']]);
    await expectRefused(refused, 429, 'feedback_rate_limited', /Please try again in \d+ minutes/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held up.
    expect((await send(h.browser(), [['feedbackText', 'from elsewhere']])).statusCode).toBe(201);
  });

  it('lets operators list, show and triage it, and a rebuild agrees with the live rows', async () => {
    const { browser } = await h.registered();
    const id = (await send(browser, [['feedbackText', 'Please add dark mode'], ['category', 'feature']])).json().feedback.id as string;
    const lines: string[] = [];
    const context = { database: h.database, store: h.runtime.eventStore, imageStore: h.runtime.imageStore, clock: h.runtime.clock, ids: h.runtime.ids, out: (line: string) => lines.push(line) };

    expect(await runFeedbackCommand(['list', '--status', 'new'], context)).toBe(0);
    expect(lines.some((line) => line.startsWith(id) && line.includes('feature') && line.includes('Please add dark mode'))).toBe(true);

    lines.length = 0;
    expect(await runFeedbackCommand(['set-status', id, 'in_progress'], context)).toBe(0);
    expect(lines).toEqual([`${id}: in_progress`]);
    expect(await runFeedbackCommand(['set-status', id, 'in_progress'], context)).toBe(0);
    expect(lines.at(-1)).toBe(`${id} is already in_progress`);
    expect((await findFeedback(h.database.db, id))?.status).toBe('in_progress');

    lines.length = 0;
    expect(await runFeedbackCommand(['list', '--status', 'new'], context)).toBe(0);
    expect(lines.some((line) => line.startsWith(id))).toBe(false);
    expect(await runFeedbackCommand(['list', '--status', 'in_progress'], context)).toBe(0);
    expect(lines.filter((line) => line.startsWith(id))).toHaveLength(1);

    lines.length = 0;
    expect(await runFeedbackCommand(['show', id], context)).toBe(0);
    expect(JSON.parse(lines.join('\n'))).toMatchObject({ id, status: 'in_progress', category: 'feature', feedbackText: 'Please add dark mode' });

    // Refusals: unknown ids and statuses, wrong arguments.
    expect(await runFeedbackCommand(['show', '00000000-0000-4000-8000-000000000000'], context)).toBe(1);
    expect(await runFeedbackCommand(['show', 'not-an-id'], context)).toBe(1);
    expect(await runFeedbackCommand(['set-status', id, 'done'], context)).toBe(1);
    expect(await runFeedbackCommand(['set-status', '00000000-0000-4000-8000-000000000000', 'closed'], context)).toBe(1);
    expect(await runFeedbackCommand(['list', '--status'], context)).toBe(1);
    expect(await runFeedbackCommand([], context)).toBe(1);
    lines.length = 0;
    expect(await runFeedbackCommand(['erase', 'not-an-email'], context)).toBe(1);
    expect(lines[0]).toBe('not-an-email is not an email');
    expect(await runFeedbackCommand(['erase', 'a@example.com', 'b@example.com'], context)).toBe(1);
    expect(await runFeedbackCommand(['erase', 'nobody-sent-this@example.com'], context)).toBe(1);
    expect(lines.at(-1)).toBe('no feedback from nobody-sent-this@example.com');

    const live = await listFeedback(h.database.db);
    await rebuildProjection(h.database, h.runtime.eventStore, feedbackProjection, 'inline');
    expect(await listFeedback(h.database.db)).toEqual(live);
  });
});
