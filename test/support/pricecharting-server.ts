import http from 'node:http';
import type { AddressInfo } from 'node:net';

// PriceCharting's API on loopback, in its wire format: GET /api/product?t={token}&q={search} answers the product whose
// search text it was given, { "status": "success", "id", "product-name", "console-name", "loose-price", "cib-price",
// "new-price", "graded-price", "box-only-price", "manual-only-price", "bgs-10-price", "condition-17-price",
// "condition-18-price" } in pennies, or { "status": "error", "error-message" } for a wrong token or an unknown product.
// It keeps every request's query.

export type PriceChartingProduct = Record<string, string | number>;

export interface PriceChartingFake {
  /** Base URL, for PRICECHARTING_API_URL. */
  url: string;
  token: string;
  /** Every request's search parameters, in order. */
  requests: URLSearchParams[];
  /** By search text ("Pikachu Base Set 58"); '*' answers any search no other product matches. */
  products: Map<string, PriceChartingProduct>;
  close(): Promise<void>;
}

export async function startPriceChartingFake(token: string, products: Record<string, PriceChartingProduct> = {}): Promise<PriceChartingFake> {
  const requests: URLSearchParams[] = [];
  const known = new Map(Object.entries(products));
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake.invalid');
    requests.push(url.searchParams);
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET' || url.pathname !== '/api/product') return reply(404, { status: 'error', 'error-message': 'Not found' });
    if (url.searchParams.get('t') !== token) return reply(401, { status: 'error', 'error-message': 'Invalid token' });
    const product = known.get(url.searchParams.get('q') ?? '') ?? known.get('*');
    if (!product) return reply(404, { status: 'error', 'error-message': 'No such product' });
    return reply(200, { status: 'success', ...product });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    products: known,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
