import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regradeCard } from '../../src/commands/cards/regrade-card.ts';
import { accuracySchema, gradeHistorySchema, professionalGradeHistorySchema } from '../../src/contracts/professional-grades.ts';
import { professionalGradesProjection } from '../../src/projections/professional-grades/professional-grades-projection.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { measureGradeWith } from '../../src/workers/regrade/regrade-job.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, samplePhoto, startCardsApp, type Browser, type CardsHarness, type FormParts } from './cards-harness.ts';

// Issue 33: an owner reports the grade their card got from a grading company (a slab photo's label verifies it), a
// correction supersedes it, and the accuracy figures count each card's latest report.

/** A card in a PSA slab, its label in PSA's layout: the grading service reads PSA 8, cert 70496954. */
const PSA_SLAB = { layout: 'psa', company: 'PSA', gradeText: 'NM-MT', grade: '8', cert: '70496954', year: '2005 POKEMON JAPANESE', name: 'MEW EX - HOLO', number: '#003', variety: 'HOLON PHANTOM' } as const;

describe.each([await routeDatabaseKind()])('professional grades on %s', (kind) => {
  let h: CardsHarness;
  let owner: Browser;
  let cardId: string;
  let slab: Uint8Array;

  const report = (browser: Browser, id: string, parts: FormParts) => browser.grade(parts, `/api/card/${id}/professional-grade`);

  beforeAll(async () => {
    h = await startCardsApp(kind);
    ({ browser: owner } = await h.registered());
    const graded = await owner.grade([['frontImage', { bytes: await samplePhoto(1) }]]);
    expect(graded.statusCode).toBe(200);
    cardId = graded.json().id;
    slab = await renderSyntheticCard({ pxPerMm: 12, borderColor: '#e8c33a', lettering: { name: 'Mew' }, photo: { noise: 2, slab: PSA_SLAB } }, 33);
  });
  afterAll(async () => h?.close());

  it('records the engine that graded the card on the grade itself', async () => {
    const { events } = await h.runtime.eventStore.readStream(`card-${cardId}`);
    const graded = events.find((e) => e.type === 'CardGraded')!;
    expect(graded.schemaVersion).toBe(2);
    expect((graded.data as { engine: { vision: string; calibration: string } }).engine.vision).toMatch(/^[0-9a-f]{12}$/);
  });

  it('is the owner\'s alone: others get the 404 of an unknown card, guests are asked to sign in', async () => {
    const { browser: other } = await h.registered();
    await expectRefused(await report(other, cardId, [['company', 'PSA'], ['grade', '9'], ['cert', '12345678']]), 404, 'card_not_found', 'Card not found');
    await expectRefused(await other.get(`/api/card/${cardId}/professional-grade`), 404, 'card_not_found');
    await expectRefused(await report(h.browser(), cardId, [['company', 'PSA'], ['grade', '9'], ['cert', '12345678']]), 401, 'unauthorized');
    await expectRefused(await report(owner, 'not-a-card', [['company', 'PSA'], ['grade', '9'], ['cert', '12345678']]), 404, 'card_not_found');
  });

  it('refuses grades the company does not give, unknown companies and bad certs, recording nothing', async () => {
    await expectRefused(await report(owner, cardId, [['company', 'PSA'], ['grade', '9.5'], ['cert', '12345678']]), 400, 'grade_not_on_scale', /PSA gives whole grades/);
    await expectRefused(await report(owner, cardId, [['company', 'PSA'], ['grade', 'ten'], ['cert', '12345678']]), 400, 'invalid_request', /^grade: /);
    await expectRefused(await report(owner, cardId, [['company', 'XYZ'], ['grade', '9'], ['cert', '12345678']]), 400, 'invalid_request', /^company: Choose one of PSA/);
    await expectRefused(await report(owner, cardId, [['company', 'PSA'], ['grade', '9'], ['cert', 'no spaces!']]), 400, 'invalid_request');
    const history = professionalGradeHistorySchema.parse((await owner.get(`/api/card/${cardId}/professional-grade`)).json());
    expect(history).toEqual({ current: null, reports: [] });
  });

  it('records a report with the engine estimate; a slab photo reading the same grade verifies the correction', async () => {
    const first = await report(owner, cardId, [['company', 'PSA'], ['grade', '9'], ['cert', '70496954']]);
    expect(first.statusCode).toBe(200);
    const afterFirst = professionalGradeHistorySchema.parse(first.json());
    expect(afterFirst.current).toMatchObject({ company: 'PSA', grade: 9, cert: '70496954', verified: false, withPhoto: false, slabLabel: null, source: 'owner' });
    expect(afterFirst.current!.estimate.engine.vision).toMatch(/^[0-9a-f]{12}$/);
    // The same report again records nothing.
    const again = professionalGradeHistorySchema.parse((await report(owner, cardId, [['company', 'PSA'], ['grade', '9'], ['cert', '70496954']])).json());
    expect(again.reports).toHaveLength(1);

    const corrected = await report(owner, cardId, [['company', 'PSA'], ['grade', '8'], ['cert', '70496954'], ['slabPhoto', { bytes: slab }]]);
    expect(corrected.statusCode).toBe(200);
    const history = professionalGradeHistorySchema.parse(corrected.json());
    expect(history.reports.map((r) => [r.grade, r.verified])).toEqual([
      [9, false],
      [8, true],
    ]);
    expect(history.current).toMatchObject({ grade: 8, verified: true, withPhoto: true, slabLabel: { company: 'PSA', grade: 8, cert: '70496954' } });
    // The estimate copied in is the one the card was graded with, both times.
    expect(history.reports[1]!.estimate).toEqual(history.reports[0]!.estimate);
  });

  it('a slab photo reading another grade leaves the report unverified', async () => {
    const { browser } = await h.registered();
    const graded = await browser.grade([['frontImage', { bytes: await samplePhoto(2) }]]);
    const id = graded.json().id as string;
    const reported = professionalGradeHistorySchema.parse((await report(browser, id, [['company', 'PSA'], ['grade', '10'], ['cert', '70496954'], ['slabPhoto', { bytes: slab }]])).json());
    expect(reported.current).toMatchObject({ grade: 10, verified: false, slabLabel: { company: 'PSA', grade: 8 } });
  });

  it('the public figures count each card\'s latest report; each account also sees its own; a rebuild equals the live rows', async () => {
    const accuracy = accuracySchema.parse((await h.browser().get('/api/accuracy')).json());
    expect(accuracy.overall.all.reports).toBe(2);
    expect(accuracy.overall.verified.reports).toBe(1);
    expect(accuracy.overall.unverified.reports).toBe(1);
    expect(accuracy.byCompany.map((c) => [c.company, c.figures.all.reports])).toEqual([['PSA', 2]]);
    expect(accuracy.byEngine).toHaveLength(1);

    const mine = accuracySchema.parse((await owner.get('/api/accuracy/mine')).json());
    expect(mine.overall.all.reports).toBe(1);
    expect(mine.overall.verified.reports).toBe(1);
    await expectRefused(await h.browser().get('/api/accuracy/mine'), 401, 'unauthorized');

    const live = await h.database.db.selectFrom('professional_grades').selectAll().orderBy('card_id').execute();
    await rebuildProjection(h.database, h.runtime.eventStore, professionalGradesProjection, 'inline');
    expect(await h.database.db.selectFrom('professional_grades').selectAll().orderBy('card_id').execute()).toEqual(live);
  });

  it('the grade history lists each grade with its engine and date, a regrade beside the grading, and the reports', async () => {
    const { browser: other } = await h.registered();
    await expectRefused(await other.get(`/api/card/${cardId}/grade-history`), 404, 'card_not_found');
    await expectRefused(await h.browser().get(`/api/card/${cardId}/grade-history`), 404, 'card_not_found');
    await expectRefused(await owner.get('/api/card/not-a-card/grade-history'), 404, 'card_not_found');
    const before = gradeHistorySchema.parse((await owner.get(`/api/card/${cardId}/grade-history`)).json());
    expect(before.grades).toHaveLength(1);
    expect(before.grades[0]).toMatchObject({ kind: 'graded', engine: { vision: expect.stringMatching(/^[0-9a-f]{12}$/) } });
    expect(before.reports.map((r) => r.grade)).toEqual([9, 8]);

    // A later engine measures the same stored photo (its version injected, as a release would change it).
    const later = { vision: 'later-engine', calibration: 'later-calibration' };
    const measure = measureGradeWith({ maxPixels: 50_000_000, engine: async () => later });
    const metadata = { actor: { kind: 'system' as const, id: 'test' }, commandId: 'regrade-1', timestamp: '2026-11-27T09:00:00.000Z' };
    const outcome = await regradeCard({ store: h.runtime.eventStore, imageStore: h.runtime.imageStore, measure }, { cardId, engine: later, dryRun: false, metadata });
    expect(outcome.outcome).toBe('regraded');
    const after = gradeHistorySchema.parse((await owner.get(`/api/card/${cardId}/grade-history`)).json());
    expect(after.grades[0]).toEqual(before.grades[0]);
    expect(after.grades[1]).toMatchObject({ kind: 'regraded', engine: later, at: '2026-11-27T09:00:00.000Z' });
    // The same photo, the same measuring code: the same grade, under another engine's name.
    expect(after.grades[1]!.overallGrade).toBe(before.grades[0]!.overallGrade);
  });

  it('a deleted card takes its report out of the figures', async () => {
    expect((await owner.delete(`/api/card/${cardId}`)).statusCode).toBe(200);
    const accuracy = accuracySchema.parse((await h.browser().get('/api/accuracy')).json());
    expect(accuracy.overall.all.reports).toBe(1);
    await expectRefused(await owner.get(`/api/card/${cardId}/professional-grade`), 404, 'card_not_found');
  });
});
