import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OrderStatusUpdate } from '../../src/infra/provider/order-status-feed.ts';

// A grading provider's order status feed on loopback, in its wire format (src/infra/provider/order-status-feed.ts):
// GET /v1/order-updates?after=<cursor> with a bearer token answers the updates published after the cursor, oldest
// first, and the cursor to go on from (the number of updates published so far). A test publishes updates as the
// provider's staff would move the orders on; the app reads them at its own pace.

export interface GradingProviderFake {
  /** The feed's URL, for ORDER_STATUS_FEED_URL. */
  url: string;
  /** Adds updates to the feed (the next read after the current cursor gets them). */
  publish(...updates: OrderStatusUpdate[]): void;
  /** Reads of the feed, and those refused for a wrong token. */
  reads: number;
  refused: number;
  /** The `after` of each read, in order (null without one). */
  afters: (string | null)[];
  close(): Promise<void>;
}

export async function startGradingProviderFake(token: string): Promise<GradingProviderFake> {
  const published: OrderStatusUpdate[] = [];
  const afters: (string | null)[] = [];
  const counts = { reads: 0, refused: 0 };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET' || url.pathname !== '/v1/order-updates') return reply(404, { error: 'not_found' });
    if (request.headers.authorization !== `Bearer ${token}`) {
      counts.refused++;
      return reply(401, { error: 'unauthorized' });
    }
    counts.reads++;
    const after = url.searchParams.get('after');
    afters.push(after);
    const from = after === null ? 0 : Number(after);
    if (!Number.isInteger(from) || from < 0 || from > published.length) return reply(400, { error: 'bad_cursor' });
    // At most two a page, so a read goes over several pages.
    const updates = published.slice(from, from + 2);
    reply(200, { updates, cursor: String(from + updates.length) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/order-updates`,
    publish: (...updates) => void published.push(...updates),
    get reads() {
      return counts.reads;
    },
    get refused() {
      return counts.refused;
    },
    afters,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
