// npm run bench:api: the card API through a real listening server, each figure next to a baseline measured in the
// same run:
//   upload: POST /api/grade-card with a 12-megapixel front and back (multipart), from the first byte sent to the
//           result, median of BENCH_UPLOADS (default 20), each for a new guest so every upload is really graded;
//           baseline: the bare grading service (decode, measure in the CPU pool, grade, identify, annotate) on
//           the same photos, run alternately with the uploads. Embedded database (PGlite) only: the database's
//           part is one small append.
//   my-cards: GET /api/my-cards for a collection of BENCH_CARDS (default 5000) cards, BENCH_CONNECTIONS (default 32)
//           connections each sending requests back to back, median and p99; baseline: GET /healthz under the same
//           load. Then the cold read the cache cannot serve: one request right after each of 10 changes to the
//           collection. On PGlite and on PostgreSQL (BENCH_DATABASE_URL, default TEST_DATABASE_URL or the machine's).
//   service mode: PostgreSQL and Redis (BENCH_REDIS_URL, default TEST_REDIS_URL or the machine's), with images in
//           files and in an S3 bucket (s3rver on loopback, in a thread of its own) side by side: upload → result of a
//           12 MP front and back, median of BENCH_SERVICE_UPLOADS (default 10), each photo new to the store; and
//           GET /api/images/{hash} of the front under BENCH_CONNECTIONS connections: images/s, MB/s, median and p99.
// BENCH_PARTS (default upload,my-cards,service) picks the parts. The load comes from a worker thread, so client and
// server do not share an event loop.
import { createHash } from 'node:crypto';
import type { CardGraded } from '../src/domain/cards/index.ts';
import { asyncProjections } from '../src/projections/index.ts';
import { projectionStatus } from '../src/projections/runner/index.ts';
import { renderSyntheticCard } from '../src/vision/index.ts';
import { gradingEngineVersion } from '../src/workers/engine-version.ts';
import { deleteRedisKeys, load, median, ms, onBothEngines, percentile, post, POSTGRES_URL, postgresReachable, REDIS_URL, redisReachable, registerBenchUser, startServer, withPostgresSchema, type Server } from './http-load.ts';
import { startS3Thread } from './s3-thread.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const CARDS = Number(process.env.BENCH_CARDS ?? 5_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const REQUESTS_PER_CONNECTION = Number(process.env.BENCH_REQUESTS_PER_CONNECTION ?? 10);
const SERVICE_UPLOADS = Number(process.env.BENCH_SERVICE_UPLOADS ?? 10);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'upload,my-cards,service').split(',').map((p) => p.trim()));
/** 12 megapixels: the card at 33 px/mm fills 75% of a 3098 × 3872 photo. */
const TWELVE_MEGAPIXEL_PX_PER_MM = 33;

async function benchUpload(server: Server, front: Uint8Array, back: Uint8Array): Promise<void> {
  const form = () => {
    const body = new FormData();
    body.append('frontImage', new Blob([front as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'front.jpg');
    body.append('backImage', new Blob([back as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'back.jpg');
    body.append('cardType', 'pokemon');
    return body;
  };
  // Warm up: threads started, code compiled, OCR worker loaded.
  await server.runtime.gradePhotos({ front, back });
  const api: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    let started = performance.now();
    await server.runtime.gradePhotos({ front, back });
    bare.push(performance.now() - started);

    started = performance.now();
    const response = await post(server.port, '/api/grade-card', { body: form() });
    const result = (await response.json()) as { id?: string; error?: string };
    api.push(performance.now() - started);
    if (!response.ok || !result.id) throw new Error(`grade-card answered ${response.status}: ${JSON.stringify(result)}`);
  }
  const [apiMedian, bareMedian] = [median(api), median(bare)];
  console.log(
    `upload → result, 12 MP front + back (${(front.length / 1e6).toFixed(1)} + ${(back.length / 1e6).toFixed(1)} MB), median of ${UPLOADS}: ` +
      `API ${ms(apiMedian)}, bare engine ${ms(bareMedian)}, ratio ${(apiMedian / bareMedian).toFixed(2)} (API overhead ${ms(apiMedian - bareMedian)})`,
  );
}

async function benchMyCards(engine: string, server: Server, sampleResult: CardGraded['data']['result']): Promise<void> {
  const { runtime, port } = server;
  const { cookie, userId } = await registerBenchUser(port);

  // The collection, appended as CardGraded events (one stream each, the cards projection inline), as grading
  // would record them; the pixel work is measured above.
  const seeded = performance.now();
  // Cards as varied as a real collection's (names, sets, grades, image hashes), so gzip gets no easier a job.
  const hex = (n: number) => createHash('sha256').update(String(n)).digest('hex');
  const names = ['Pikachu', 'Charizard', 'Blastoise', 'Venusaur', 'Mewtwo', 'Gengar', 'Eevee', 'Snorlax', 'Dragonite', 'Lugia'];
  const sets = ['Base Set', 'Jungle', 'Fossil', 'Team Rocket', 'Neo Genesis', 'Evolving Skies', 'Crown Zenith'];
  const grade = (n: number, salt: number) => (60 + ((n * 7919 + salt * 104729) % 41)) / 10;
  async function appendCard(n: number): Promise<void> {
    const cardId = `bench${String(n).padStart(17, '0')}`;
    const data: CardGraded['data'] = {
      cardId,
      owner: `user:${userId}`,
      cardType: 'pokemon',
      images: { front: { hash: hex(2 * n + 1), contentType: 'image/jpeg', sourceUrl: null }, back: { hash: hex(2 * n + 2), contentType: 'image/jpeg', sourceUrl: null } },
      annotatedImages: { front: hex(2 * n + 1), back: hex(2 * n + 2) },
      result: {
        ...sampleResult,
        cardName: `${names[n % names.length]} ${n}`,
        cardSet: sets[(n * 3) % sets.length]!,
        cardNumber: `${(n % 180) + 1}/${180 + (n % 7)}`,
        grades: { centering: grade(n, 1), corners: grade(n, 2), edges: grade(n, 3), surface: grade(n, 4) },
        overallGrade: grade(n, 5),
      },
      engine: await gradingEngineVersion(),
      gradedAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    };
    await runtime.eventStore.append(`card-${cardId}`, 'card', [{ type: 'CardGraded', data, metadata: { actor: { kind: 'user', id: userId }, commandId: cardId, timestamp: data.gradedAt } }], {
      expected: 'no_stream',
    });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < CARDS) await appendCard(next++);
    }),
  );
  console.log(`${engine}: seeded ${CARDS} cards in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  // The leaderboard and achievements runners catch up first: on PGlite their batches share the one connection.
  const caughtUp = performance.now();
  while ((await projectionStatus(runtime.database.db, { inline: [], async: asyncProjections })).some((s) => s.lag > 0)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`${engine}: async projections caught up in ${((performance.now() - caughtUp) / 1000).toFixed(1)} s more`);

  const job = { port, cookie, connections: CONNECTIONS, requestsPerConnection: REQUESTS_PER_CONNECTION };
  const single = { ...job, connections: 1, requestsPerConnection: 1 };
  await load({ ...job, path: '/api/my-cards', requestsPerConnection: 1 }); // warm up
  const cards = await load({ ...job, path: '/api/my-cards' });
  const health = await load({ ...job, path: '/healthz' });
  const size = cards.bytes / cards.latencies.length;

  // Cold: each read follows a change (a card graded), so the collection is read from the database again.
  const cold: number[] = [];
  const coldHealth: number[] = [];
  for (let i = 0; i < 10; i++) {
    await appendCard(CARDS + i);
    cold.push(...(await load({ ...single, path: '/api/my-cards' })).latencies);
    coldHealth.push(...(await load({ ...single, path: '/healthz' })).latencies);
  }
  console.log(
    `${engine}: GET /api/my-cards, ${CARDS} cards (${(size / 1e6).toFixed(2)} MB gzipped), ${CONNECTIONS} connections, ${cards.latencies.length} requests: ` +
      `median ${ms(median(cards.latencies))}, p99 ${ms(percentile(cards.latencies, 99))}; ` +
      `GET /healthz same load: median ${ms(median(health.latencies))}, p99 ${ms(percentile(health.latencies, 99))}; ` +
      `ratio median ${(median(cards.latencies) / median(health.latencies)).toFixed(1)}, p99 ${(percentile(cards.latencies, 99) / percentile(health.latencies, 99)).toFixed(1)}`,
  );
  console.log(
    `${engine}: GET /api/my-cards right after a change (cold, one connection), median of 10: ${ms(median(cold))}; ` +
      `GET /healthz alone ${ms(median(coldHealth))}; ratio ${(median(cold) / median(coldHealth)).toFixed(1)}`,
  );
}

/** The 12-MP front with `n` appended after its end: another file (another hash, so a real write), the same picture. */
const variant = (bytes: Uint8Array, n: number) => Buffer.concat([bytes, Buffer.from(`bench variant ${n}`)]);

interface ServiceFigures {
  store: string;
  uploads: number[];
  image: { latencies: number[]; bytes: number; seconds: number };
}

/** One service-mode server (PostgreSQL, Redis, and the given image store): uploads, then the front photo served. */
async function benchServiceStore(store: string, env: Record<string, string>, front: Uint8Array, back: Uint8Array): Promise<ServiceFigures> {
  return withPostgresSchema(async (database) => {
    const queuePrefix = `bench-api-${Date.now()}`;
    const server = await startServer(database, { REDIS_URL, QUEUE_PREFIX: queuePrefix, GRADE_LIMIT_GUEST_PER_MINUTE: '100000', GRADE_LIMIT_GUEST_PER_DAY: '100000', ...env });
    try {
      const upload = async (n: number) => {
        const body = new FormData();
        body.append('frontImage', new Blob([variant(front, n)], { type: 'image/jpeg' }), 'front.jpg');
        body.append('backImage', new Blob([variant(back, n)], { type: 'image/jpeg' }), 'back.jpg');
        const started = performance.now();
        const response = await post(server.port, '/api/grade-card', { body });
        const result = (await response.json()) as { id?: string };
        if (!response.ok || !result.id) throw new Error(`grade-card answered ${response.status}: ${JSON.stringify(result)}`);
        return performance.now() - started;
      };
      await upload(-1); // warm up: threads started, code compiled, OCR worker loaded
      const uploads: number[] = [];
      for (let i = 0; i < SERVICE_UPLOADS; i++) uploads.push(await upload(i));

      // The front photo as a browser gets it; each request really reads it (no If-None-Match).
      const path = `/api/images/${createHash('sha256').update(variant(front, 0)).digest('hex')}`;
      const job = { port: server.port, path, cookie: '', connections: CONNECTIONS, requestsPerConnection: REQUESTS_PER_CONNECTION };
      await load({ ...job, requestsPerConnection: 1 });
      const started = performance.now();
      const image = await load(job);
      return { store, uploads, image: { ...image, seconds: (performance.now() - started) / 1000 } };
    } finally {
      await server.close();
      await deleteRedisKeys(`${queuePrefix}:*`);
    }
  });
}

/** The service mode (PostgreSQL, Redis) with images in files and in an S3 bucket (s3rver in a thread of its own). */
async function benchServiceMode(front: Uint8Array, back: Uint8Array): Promise<void> {
  if (!(await postgresReachable()) || !(await redisReachable())) {
    console.log(`service mode: PostgreSQL (${POSTGRES_URL}) or Redis (${REDIS_URL}) not reachable; its figures are left out.`);
    return;
  }
  const s3 = await startS3Thread();
  const figures: ServiceFigures[] = [];
  try {
    figures.push(await benchServiceStore('files (DATA_DIR/images)', { IMAGE_STORE: '' }, front, back));
    figures.push(await benchServiceStore('S3 (s3rver on loopback)', s3.env, front, back));
  } finally {
    await s3.stop();
  }
  const size = figures[0]!.image.bytes / figures[0]!.image.latencies.length;
  console.log(`service mode (PostgreSQL, Redis): upload → result of a 12 MP front + back, median of ${SERVICE_UPLOADS}, and GET /api/images/{hash} of the ${(size / 1e6).toFixed(1)} MB front, ${CONNECTIONS} connections × ${REQUESTS_PER_CONNECTION}:`);
  console.log(`  ${'image store'.padEnd(26)} ${'upload → result'.padStart(16)} ${'images/s'.padStart(9)} ${'MB/s'.padStart(7)} ${'median'.padStart(9)} ${'p99'.padStart(9)}`);
  for (const { store, uploads, image } of figures) {
    console.log(
      `  ${store.padEnd(26)} ${ms(median(uploads)).padStart(16)} ${(image.latencies.length / image.seconds).toFixed(0).padStart(9)} ${(image.bytes / 1e6 / image.seconds).toFixed(0).padStart(7)} ${ms(median(image.latencies)).padStart(9)} ${ms(percentile(image.latencies, 99)).padStart(9)}`,
    );
  }
}

console.log(`drawing the 12-megapixel photos…`);
const [front, back] = await Promise.all([
  renderSyntheticCard({ pxPerMm: TWELVE_MEGAPIXEL_PX_PER_MM, photo: { noise: 8, rotationDeg: 2 } }, 101),
  renderSyntheticCard({ pxPerMm: TWELVE_MEGAPIXEL_PX_PER_MM, photo: { noise: 8, rotationDeg: -1.5 } }, 102),
]);

let sampleResult: CardGraded['data']['result'] | undefined;
if (PARTS.has('upload') || PARTS.has('my-cards')) {
  await onBothEngines(async (engine, server) => {
    // The upload is measured once, on PGlite: the database's part is one small append.
    if (!sampleResult) {
      if (PARTS.has('upload')) await benchUpload(server, front, back);
      sampleResult = (await server.runtime.gradePhotos({ front, back })).card;
    }
    if (PARTS.has('my-cards')) await benchMyCards(engine, server, sampleResult);
  });
}
if (PARTS.has('service')) await benchServiceMode(front, back);
