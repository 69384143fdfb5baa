// Seeds for bench:store: a log of real card events, written straight into the tables (replay is what is measured).
import { randomUUID } from 'node:crypto';
import type { Database } from '../src/infra/database/database.ts';
import type { EventMetadata } from '../src/infra/event-store/index.ts';
import { cardGradedData, gradedCard } from '../test/cards/graded-card-fixture.ts';

const metadata: EventMetadata = { actor: { kind: 'system', id: 'bench' }, commandId: 'bench', timestamp: '2025-01-01T00:00:00.000Z' };

/** 4 of 5 events a card graded (its own stream, 5,000 owners), 1 of 5 a price recorded for one of them. */
export async function seedCards(database: Database, events: number): Promise<void> {
  const cards = Math.ceil((events * 4) / 5);
  const result = gradedCard();
  const base = cardGradedData({ result });
  const hex = (n: number) => n.toString(16).padStart(64, '0');
  for (let from = 0; from < cards; from += 500) {
    const ids = Array.from({ length: Math.min(500, cards - from) }, (_, i) => from + i);
    const cardId = (n: number) => `bench${String(n).padStart(17, '0')}`;
    const withPrice = ids.filter((n) => n % 4 === 0);
    await database.db
      .insertInto('es_streams')
      .values(ids.map((n) => ({ stream_id: `card-${cardId(n)}`, stream_type: 'card', version: n % 4 === 0 ? 2 : 1 })))
      .execute();
    const rows = [
      ...ids.map((n) => ({
        stream_id: `card-${cardId(n)}`,
        stream_position: 1,
        event_type: 'CardGraded',
        data: JSON.stringify({
          ...base,
          cardId: cardId(n),
          owner: `user:00000000-0000-4000-8000-${String(n % 5_000).padStart(12, "0")}`,
          images: { front: { hash: hex(2 * n), contentType: 'image/jpeg', sourceUrl: null }, back: null },
          annotatedImages: { front: hex(2 * n + 1), back: null },
          result: { ...result, cardName: `Card ${n}`, overallGrade: 6 + (n % 40) / 10 },
          gradedAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
        }),
      })),
      ...withPrice.map((n) => ({
        stream_id: `card-${cardId(n)}`,
        stream_position: 2,
        event_type: 'CardPriceRecorded',
        data: JSON.stringify({ cardId: cardId(n), priceDate: '2026-02-01', priceValue: 10 + (n % 90), source: 'bench', grade: 8, recordedAt: '2026-02-01T00:00:00.000Z' }),
      })),
    ];
    await database.db
      .insertInto('es_events')
      .values(rows.map((row) => ({ ...row, event_id: randomUUID(), schema_version: 1, metadata: JSON.stringify(metadata), recorded_at: new Date() })))
      .execute();
  }
}

