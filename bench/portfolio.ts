// npm run bench:portfolio: GET /api/portfolio for a portfolio of BENCH_CARDS (default 5000) cards through a real
// listening server, BENCH_CONNECTIONS (default 32) connections each sending BENCH_REQUESTS_PER_CONNECTION (default 10)
// requests back to back, median and p99; baseline: GET /healthz under the same load in the same run. On PGlite and
// on PostgreSQL (BENCH_DATABASE_URL, default TEST_DATABASE_URL or the machine's). Then the cold read the snapshot cache
// cannot serve: one request right after each of 10 price edits.
import { addPortfolioCard } from '../src/commands/portfolio/add-portfolio-card.ts';
import { addPortfolioCardSchema } from '../src/contracts/portfolio.ts';
import { load, median, ms, onBothEngines, percentile, registerBenchUser, type Server } from './http-load.ts';

const CARDS = Number(process.env.BENCH_CARDS ?? 5_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const REQUESTS_PER_CONNECTION = Number(process.env.BENCH_REQUESTS_PER_CONNECTION ?? 10);

const names = ['Pikachu', 'Charizard', 'Blastoise', 'Venusaur', 'Mewtwo', 'Gengar', 'Eevee', 'Snorlax', 'Dragonite', 'Lugia'];
const sets = ['Base Set', 'Jungle', 'Fossil', 'Team Rocket', 'Neo Genesis', 'Evolving Skies', 'Crown Zenith'];
const companies = ['PSA', 'CGC', 'BGS', 'AGS', 'TAG', 'SGC'];

async function benchPortfolio(engine: string, server: Server): Promise<void> {
  const { runtime, port } = server;
  const { cookie, userId } = await registerBenchUser(port);

  // Cards as varied as a real portfolio's, added through the command (events, inline projection), as POST would.
  const seeded = performance.now();
  let next = 0;
  let firstId = Number.POSITIVE_INFINITY;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < CARDS) {
        const n = next++;
        const graded = n % 3 === 0;
        const body = addPortfolioCardSchema.parse({
          cardName: `${names[n % names.length]} ${n}`,
          cardSet: sets[(n * 3) % sets.length],
          cardNumber: `${(n % 180) + 1}/${180 + (n % 7)}`,
          cardYear: String(1996 + (n % 30)),
          isGraded: graded,
          ...(graded ? { gradingCompany: companies[n % companies.length], officialGrade: 6 + (n % 9) * 0.5 } : {}),
          condition: 'Near Mint',
          rarity: 'Holo',
          currentPrice: `${(n * 7919) % 100_000}.${String(n % 100).padStart(2, '0')}`,
          priceSource: 'TCGplayer',
          acquisitionPrice: `${(n * 104729) % 50_000}.99`,
          acquisitionDate: '2026-01-15',
          imageUrl: `https://images.example.com/cards/${n}-front.jpg`,
          backImageUrl: `https://images.example.com/cards/${n}-back.jpg`,
        });
        const metadata = { actor: { kind: 'user' as const, id: userId }, commandId: `bench-${n}`, timestamp: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString() };
        const id = await addPortfolioCard({ store: runtime.eventStore, db: runtime.database.db, metadata }, { owner: `user:${userId}`, body });
        firstId = Math.min(firstId, id);
      }
    }),
  );
  console.log(`${engine}: seeded ${CARDS} portfolio cards in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  const job = { port, cookie, connections: CONNECTIONS, requestsPerConnection: REQUESTS_PER_CONNECTION };
  await load({ ...job, path: '/api/portfolio', requestsPerConnection: 1 }); // warm up
  const cards = await load({ ...job, path: '/api/portfolio' });
  const health = await load({ ...job, path: '/healthz' });
  const size = cards.bytes / cards.latencies.length;

  // Cold: each read follows a change (a price edited), so the snapshot is made again from the database.
  const cold: number[] = [];
  const coldHealth: number[] = [];
  const single = { ...job, connections: 1, requestsPerConnection: 1 };
  for (let i = 0; i < 10; i++) {
    const edited = await fetch(`http://127.0.0.1:${port}/api/portfolio/${firstId + i}`, {
      method: 'PATCH',
      headers: { origin: `http://127.0.0.1:${port}`, cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ currentPrice: `${i + 1}.00` }),
    });
    if (!edited.ok) throw new Error(`PATCH answered ${edited.status}`);
    cold.push(...(await load({ ...single, path: '/api/portfolio' })).latencies);
    coldHealth.push(...(await load({ ...single, path: '/healthz' })).latencies);
  }
  console.log(
    `${engine}: GET /api/portfolio, ${CARDS} cards (${(size / 1e6).toFixed(2)} MB on the wire), ${CONNECTIONS} connections, ${cards.latencies.length} requests: ` +
      `median ${ms(median(cards.latencies))}, p99 ${ms(percentile(cards.latencies, 99))}; ` +
      `GET /healthz same load: median ${ms(median(health.latencies))}, p99 ${ms(percentile(health.latencies, 99))}; ` +
      `ratio median ${(median(cards.latencies) / median(health.latencies)).toFixed(1)}, p99 ${(percentile(cards.latencies, 99) / percentile(health.latencies, 99)).toFixed(1)}`,
  );
  console.log(
    `${engine}: GET /api/portfolio right after a change (cold, one connection), median of 10: ${ms(median(cold))}; ` +
      `GET /healthz alone ${ms(median(coldHealth))}; ratio ${(median(cold) / median(coldHealth)).toFixed(1)}`,
  );
}

await onBothEngines(benchPortfolio);
