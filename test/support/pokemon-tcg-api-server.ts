import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The public Pokémon TCG API (v2) on loopback, in its wire format: GET /v2/cards/{id} answers
// { "data": { "id", "name", "tcgplayer": { "url", "updatedAt", "prices": { "<printing>": { "low", "mid", "high", "market", "directLow" } } },
//   "cardmarket": { "url", "updatedAt", "prices": { "averageSellPrice", "trendPrice", "avg30", … } } } },
// 404 { "error": { "message", "code": 404 } } for an id it does not know. Each card can be told to fail instead: 429,
// 500, no answer (a timeout), or a body that is not JSON; and every answer can be made to take `delayMs`. It counts
// requests, the most it was answering at once, and keeps the API keys it was sent.

export type FakeBehaviour = 'ok' | 404 | 429 | 500 | 'timeout' | 'malformed';

export interface FakeCardPrices {
  tcgplayer?: { updatedAt: string; prices: Record<string, Partial<Record<'low' | 'mid' | 'high' | 'market' | 'directLow', number | null>>> };
  cardmarket?: { updatedAt: string; prices: Partial<Record<'averageSellPrice' | 'trendPrice' | 'avg30' | 'lowPrice', number | null>> };
}

export interface PokemonTcgApiFake {
  /** Base URL, for POKEMONTCG_API_URL. */
  url: string;
  /** Every request's path, in order. */
  requests: string[];
  apiKeys: (string | undefined)[];
  cards: Map<string, FakeCardPrices>;
  behaviour: Map<string, FakeBehaviour>;
  /** How long each answer takes (0 by default). */
  delayMs: number;
  /** The most requests it was answering at the same time. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export async function startPokemonTcgApiFake(cards: Record<string, FakeCardPrices> = {}): Promise<PokemonTcgApiFake> {
  const fake = {
    requests: [] as string[],
    apiKeys: [] as (string | undefined)[],
    cards: new Map(Object.entries(cards)),
    behaviour: new Map<string, FakeBehaviour>(),
    delayMs: 0,
    maxInFlight: 0,
  };
  let inFlight = 0;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer(async (request, response) => {
    fake.requests.push(request.url ?? '');
    const key = request.headers['x-api-key'];
    fake.apiKeys.push(Array.isArray(key) ? key[0] : key);
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    response.once('close', () => inFlight--);
    if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    const reply = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    const match = /^\/v2\/cards\/([^/?]+)$/.exec(request.url ?? '');
    if (request.method !== 'GET' || !match) return reply(404, JSON.stringify({ error: { message: 'Not Found', code: 404 } }));
    const id = decodeURIComponent(match[1]!);
    const behaviour = fake.behaviour.get(id) ?? 'ok';
    if (behaviour === 'timeout') {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      return;
    }
    if (behaviour === 429) return reply(429, JSON.stringify({ error: { message: 'Rate limit exceeded', code: 429 } }));
    if (behaviour === 500) return reply(500, JSON.stringify({ error: { message: 'Internal Server Error', code: 500 } }));
    if (behaviour === 'malformed') return reply(200, '{"data": {"id": "' + id + '", "tcgplayer": {"prices": ');
    const card = fake.cards.get(id);
    if (!card || behaviour === 404) return reply(404, JSON.stringify({ error: { message: 'Not Found', code: 404 } }));
    const data = {
      id,
      name: 'a card',
      ...(card.tcgplayer ? { tcgplayer: { url: `https://prices.pokemontcg.io/tcgplayer/${id}`, ...card.tcgplayer } } : {}),
      ...(card.cardmarket ? { cardmarket: { url: `https://prices.pokemontcg.io/cardmarket/${id}`, ...card.cardmarket } } : {}),
    };
    return reply(200, JSON.stringify({ data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
