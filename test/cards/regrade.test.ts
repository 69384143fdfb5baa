import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRegradeCommand } from '../../scripts/regrade.ts';
import { reportProfessionalGrade } from '../../src/commands/cards/report-professional-grade.ts';
import { cardStream } from '../../src/commands/cards/streams.ts';
import type { EngineVersion } from '../../src/contracts/professional-grades.ts';
import { cardRegradedSchema } from '../../src/domain/cards/index.ts';
import { randomIds, systemClock } from '../../src/infra/clock/clock.ts';
import { createEventStore, START, type EventMetadata, type EventStore, type RecordedEvent } from '../../src/infra/event-store/index.ts';
import { createFileImageStore } from '../../src/infra/image-storage/file-image-store.ts';
import { createInProcessQueue } from '../../src/infra/queue/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { rebuildProjections } from '../../src/projections/runner/index.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { measureGradeWith } from '../../src/workers/regrade/regrade-job.ts';
import { pino } from 'pino';
import { catchUpAsyncProjections, everyProjection, readModels as readModelsOf } from '../projections/every-read-model.ts';
import { createTestDatabase, routeDatabaseKind, type TestDatabase } from '../support/database.ts';
import { cardGradedData, gradedCard } from './graded-card-fixture.ts';

// `npm run regrade` over 1,000 stored cards whose grades an older engine made: the dry run says how each grade would
// move and records nothing; applied (first the cards since a date, then the rest), each card gets its new grade
// beside the old with the new engine's version, its earlier events untouched; a rerun does nothing; and every read
// model rebuilt from the log equals the live one. The photos are small synthetic cards (6 px/mm) the real engine
// measures; the 1,000 cards share nine of them (owners share photos: every account's sample cards are the same), so
// the engine measures each once per run. The engine's version is injected, as a new release would change it.

const OLD: EngineVersion = { vision: 'old-vision', calibration: '2026-01-01@old-vision' };
const NEW: EngineVersion = { vision: 'new-vision', calibration: '2026-11-27@new-vision' };
const CARDS = 1_000;
const metadata: EventMetadata = { actor: { kind: 'system', id: 'test' }, commandId: 'seed', timestamp: '2026-03-01T12:00:00.000Z' };

/** Owners are accounts (user ids are UUIDs): 100 of them, ten cards each. */
const owner = (i: number) => `user:00000000-0000-4000-8000-${String(i % 100).padStart(12, '0')}` as const;
const cardId = (i: number) => `regrade${String(i).padStart(15, '0')}`;
/** Cards 0..499 graded in March, the rest in June: `--since 2026-06-01` takes the second half. */
const gradedAt = (i: number) => (i < CARDS / 2 ? `2026-03-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00.000Z` : `2026-06-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00.000Z`);

describe(`npm run regrade over ${CARDS} stored cards on ${await routeDatabaseKind()}`, () => {
  let database: TestDatabase;
  let store: EventStore;
  const imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'regrade-test-'));
  const imageStore = createFileImageStore(imagesDir);
  const measure = measureGradeWith({ maxPixels: 50_000_000, engine: async () => NEW });
  let refusedCard = '';
  let streamsBefore: Map<string, RecordedEvent[]>;

  async function run(...args: string[]) {
    const lines: string[] = [];
    const queue = createInProcessQueue({ logger: pino({ level: 'silent' }) });
    try {
      const code = await runRegradeCommand(args, { database, store, imageStore, queue, measure, engine: async () => NEW, clock: systemClock, ids: randomIds, out: (line) => lines.push(line), concurrency: 4, pollMs: 50 });
      return { code, lines };
    } finally {
      await queue.close(5_000);
    }
  }

  const readModels = () => readModelsOf(database);
  const eventCount = async () => Number((await sql<{ n: string }>`select count(*) as n from es_events`.execute(database.db)).rows[0]!.n);
  /**
   * Every card stream's events, from one read of the log. The log is read only up to where no transaction that may
   * still commit lies before (the runners' rule), which lags the last appends on a loaded machine: read until it is all.
   */
  async function streams(): Promise<Map<string, RecordedEvent[]>> {
    const total = await eventCount();
    let events = await store.readAll(START, 1_000_000);
    for (const deadline = Date.now() + 10_000; events.length < total && Date.now() < deadline; events = await store.readAll(START, 1_000_000)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (events.length !== total) throw new Error(`The log reads ${events.length} events of ${total}`);
    const byStream = new Map<string, RecordedEvent[]>();
    for (const event of events) byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event]);
    return byStream;
  }

  beforeAll(async () => {
    database = await createTestDatabase(await routeDatabaseKind());
    store = createEventStore(database, { inline: inlineProjections });
    // Eight photos the engine measures (borders off centre by different amounts, some scratched) and one it now refuses
    // (the card too small in the photo).
    const photos: Awaited<ReturnType<typeof imageStore.put>>[] = [];
    for (let i = 0; i < 8; i++) {
      const bytes = await renderSyntheticCard(
        { pxPerMm: 6, borders: { leftMm: 2 + (i % 4) * 0.5, rightMm: 3, topMm: 3, bottomMm: 2 + (i % 3) * 0.4 }, defects: i % 2 ? [{ kind: 'scratch', x: 30, y: 40, lengthMm: 10 + i, angleDeg: 20 }] : [], photo: { noise: 2 } },
        i,
      );
      photos.push(await imageStore.put(bytes));
    }
    const tooSmall = await imageStore.put(await renderSyntheticCard({ pxPerMm: 4, borders: { leftMm: 3, rightMm: 3, topMm: 3, bottomMm: 3 } }, 99));
    // The old engine's grades: hand-built measurements of a few kinds, so the grades before differ.
    const oldResults = [gradedCard(), gradedCard({ front: { centering: { horizontal: 65, vertical: 55 } } }), gradedCard({ front: { scratchLengthMm: 20, corners: { topLeft: 0.4 } } }), gradedCard({ front: { crease: true } })];
    // Appended ten at a time, as cards come in from many owners at once.
    const seed = async (i: number) => {
      const photo = i === 7 ? tooSmall : photos[i % photos.length]!;
      const data = cardGradedData({
        cardId: cardId(i),
        owner: owner(i),
        images: { front: { hash: photo.hash, contentType: photo.contentType, sourceUrl: null }, back: null },
        result: oldResults[i % oldResults.length]!,
        engine: OLD,
        gradedAt: gradedAt(i),
        savedSeparately: true,
      });
      await store.append(cardStream(data.cardId).streamId, 'card', [{ type: 'CardGraded', data, metadata: { ...metadata, timestamp: data.gradedAt } }], { expected: 'no_stream' });
    };
    for (let i = 0; i < CARDS; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => seed(i + j)));
    refusedCard = cardId(7);
    // Some saved, some reported professionally (their estimate was the old engine's), one deleted.
    for (let i = 0; i < 40; i++) await store.append(cardStream(cardId(i)).streamId, 'card', [{ type: 'CardSaved', data: { cardId: cardId(i), owner: owner(i), sample: false, savedAt: '2026-07-01T00:00:00.000Z' }, metadata }], { expected: 1 });
    for (let i = 100; i < 105; i++) {
      await reportProfessionalGrade({ store }, { cardId: cardId(i), requestedBy: owner(i), company: 'PSA', grade: 8, cert: `8000${i}`, slabPhoto: null, source: 'owner', metadata: { ...metadata, commandId: `report-${i}` } });
    }
    await store.append(cardStream(cardId(999)).streamId, 'card', [{ type: 'CardDeleted', data: { cardId: cardId(999), owner: owner(99), deletedAt: '2026-07-01T00:00:00.000Z' }, metadata }], { expected: 1 });
    streamsBefore = await streams();
  }, 120_000);
  afterAll(async () => {
    await database?.destroy();
    fs.rmSync(imagesDir, { recursive: true, force: true });
  });

  it('a dry run prints how every grade would move, by card and by grade, and records nothing', async () => {
    const [events, models] = [await eventCount(), await readModels()];
    const { code, lines } = await run('--dry-run');
    expect(code).toBe(0);
    expect(lines[0]).toBe(`${CARDS - 1} cards graded; 0 already graded by engine new-vision@2026-11-27@new-vision, skipped; ${CARDS - 1} to measure (dry run: nothing is recorded)`);
    expect(lines.filter((line) => line.startsWith('progress: ')).at(-1)).toBe(`progress: ${CARDS - 1}/${CARDS - 1} (100%)`);
    // One row per card: old grade with its engine, the new one with its engine (or why not).
    const header = lines.findIndex((line) => line.startsWith('card '));
    const rows = lines.slice(header + 1, header + CARDS);
    expect(rows).toHaveLength(CARDS - 1);
    const row = (id: string) => rows.find((line) => line.startsWith(id))!;
    expect(row(cardId(0))).toMatch(new RegExp(`^${cardId(0)}\\s+\\d+(\\.\\d+)? \\(old-vision@2026-01-01@old-vision\\)\\s+\\d+(\\.\\d+)? \\(new-vision@2026-11-27@new-vision\\)$`));
    expect(row(refusedCard)).toMatch(/refused: The card is too small in the photo/);
    expect(rows.filter((line) => line.includes('(new-vision@'))).toHaveLength(CARDS - 2);
    const summary = lines.slice(lines.indexOf('summary by grade (old grade, whole points):') + 1, -1);
    expect(summary.length).toBeGreaterThan(1);
    // The summary's cards add up to every card, and one of them was not measured.
    expect(summary.map((line) => Number(/: (\d+) cards/.exec(line)![1])).reduce((a, b) => a + b)).toBe(CARDS - 1);
    expect(summary.filter((line) => line.includes('1 not measured'))).toHaveLength(1);
    expect(lines.at(-1)).toBe(`dry run, nothing recorded: ${CARDS - 2} would-regrade, 1 refused`);
    expect(await eventCount()).toBe(events);
    expect(await readModels()).toEqual(models);
  }, 60_000);

  it('applied, it records each new grade beside the old, since a date first, then the rest; a rerun does nothing', async () => {
    const since = await run('--since', '2026-06-01');
    expect(since.code).toBe(0);
    expect(since.lines[0]).toBe(`${CARDS / 2 - 1} cards graded since 2026-06-01; 0 already graded by engine new-vision@2026-11-27@new-vision, skipped; ${CARDS / 2 - 1} to regrade`);
    expect(since.lines.at(-1)).toBe(`${CARDS / 2 - 1} regraded`);

    const rest = await run();
    expect(rest.lines[0]).toBe(`${CARDS - 1} cards graded; ${CARDS / 2 - 1} already graded by engine new-vision@2026-11-27@new-vision, skipped; ${CARDS / 2} to regrade`);
    expect(rest.lines.at(-1)).toBe(`${CARDS / 2 - 1} regraded, 1 refused`);

    // History intact: every earlier event as it was, then one CardRegraded naming both engines.
    const after = await streams();
    for (let i = 0; i < CARDS; i++) {
      const id = cardId(i);
      const events = after.get(cardStream(id).streamId)!;
      const before = streamsBefore.get(cardStream(id).streamId)!;
      expect(before.length).toBeGreaterThan(0);
      expect(events.slice(0, before.length)).toEqual(before);
      const added = events.slice(before.length);
      if (i === 999 || id === refusedCard) {
        expect(added).toEqual([]);
        continue;
      }
      expect(added.map((e) => e.type)).toEqual(['CardRegraded']);
      const regraded = cardRegradedSchema.parse(added[0]!.data);
      expect({ engine: regraded.engine, previous: regraded.previous.engine }).toEqual({ engine: NEW, previous: OLD });
    }
    // The read model names the engine of each card's latest grade, and keeps the grade it was graded with.
    const engines = await database.db.selectFrom('card_grades').select(['engine_vision']).select((eb) => eb.fn.countAll<string>().as('n')).groupBy('engine_vision').orderBy('engine_vision').execute();
    expect(engines.map((e) => [e.engine_vision, Number(e.n)])).toEqual([
      ['new-vision', CARDS - 2],
      ['old-vision', 1],
    ]);

    const events = await eventCount();
    const again = await run();
    expect(again.code).toBe(0);
    expect(again.lines).toEqual([`${CARDS - 1} cards graded; ${CARDS - 2} already graded by engine new-vision@2026-11-27@new-vision, skipped; 1 to regrade`, expect.stringMatching(/^progress: 1\/1/), expect.any(String), expect.stringContaining('refused'), expect.any(String), expect.any(String), '1 refused']);
    expect(await eventCount()).toBe(events);
    // The professional reports made before keep the old engine's estimate; nothing about them moved.
    const reports = await database.db.selectFrom('professional_grades').select(['engine_vision']).execute();
    expect(reports.map((r) => r.engine_vision)).toEqual(Array(5).fill('old-vision'));
  }, 60_000);

  it('every read model rebuilt from the log equals the live one', async () => {
    // The async read models (leaderboard, achievements) caught up first, as a server's runners keep them.
    await catchUpAsyncProjections(database, store, 30_000);
    const live = await readModels();
    expect(live.card_grades).toHaveLength(CARDS - 1);
    await sql`update card_grades set engine_vision = 'damaged', latest_overall_grade = 0`.execute(database.db);
    await rebuildProjections(database, store, everyProjection, { batchSize: 500 });
    const rebuilt = await readModels();
    for (const table of Object.keys(live)) expect({ table, rows: rebuilt[table] }).toEqual({ table, rows: live[table] });
  }, 60_000);
});
