import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_ENGINE } from '../../src/contracts/professional-grades.ts';
import { cardGradedSchema } from '../../src/domain/cards/index.ts';
import { PSA_CALIBRATION } from '../../src/domain/grading/psa-calibration.ts';
import { createEventStore } from '../../src/infra/event-store/index.ts';
import type { EventStore } from '../../src/infra/event-store/types.ts';
import { CALIBRATION_VERSION, gradingEngineVersion } from '../../src/workers/engine-version.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { cardGradedData } from './graded-card-fixture.ts';

// Every grade records the engine that made it (issue 33); grades recorded before that read as made by 'unknown'.

const metadata = { actor: { kind: 'user' as const, id: 'u1' }, commandId: 'c1', timestamp: '2026-03-01T12:00:00.000Z' };

describe('the engine version on every grade', () => {
  let database: TestDatabase;
  let store: EventStore;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    store = createEventStore(database);
  });
  afterAll(async () => database?.destroy());

  it('names the vision by the hash the calibration names, and the calibration by its fit', async () => {
    const engine = await gradingEngineVersion();
    expect(engine.vision).toMatch(/^[0-9a-f]{12}$/);
    expect(engine.calibration).toBe(CALIBRATION_VERSION);
    expect(CALIBRATION_VERSION).toBe(`${PSA_CALIBRATION.provenance.date}@${PSA_CALIBRATION.provenance.engineVersion}`);
    expect(await gradingEngineVersion()).toEqual(engine);
  });

  it('a CardGraded written before engines were recorded (version 1) reads as made by an unknown engine', async () => {
    const { engine: _dropped, ...old } = cardGradedData({ cardId: 'old0old0old0old0old0ol' });
    await store.append('card-old0old0old0old0old0ol', 'card', [{ type: 'CardGraded', schemaVersion: 1, data: old, metadata }], { expected: 'no_stream' });
    const [event] = (await store.readStream('card-old0old0old0old0old0ol')).events;
    expect(event!.schemaVersion).toBe(2);
    expect(cardGradedSchema.parse(event!.data).engine).toEqual(UNKNOWN_ENGINE);
  });

  it('a new CardGraded is written at version 2 with its engine, and read back as written', async () => {
    const data = cardGradedData({ cardId: 'new0new0new0new0new0ne', engine: { vision: 'abcdef123456', calibration: CALIBRATION_VERSION } });
    await store.append('card-new0new0new0new0new0ne', 'card', [{ type: 'CardGraded', data, metadata }], { expected: 'no_stream' });
    const [event] = (await store.readStream('card-new0new0new0new0new0ne')).events;
    expect(event!.schemaVersion).toBe(2);
    expect(cardGradedSchema.parse(event!.data).engine).toEqual({ vision: 'abcdef123456', calibration: CALIBRATION_VERSION });
  });
});
