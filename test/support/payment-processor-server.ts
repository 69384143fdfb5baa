import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { testModeOutcome } from '../../src/infra/payments/test-mode.ts';

// A card processor's API on loopback, in its wire format (POST /v1/authorizations, bearer key, Idempotency-Key;
// 200 with the authorisation, 402 with { error: { code, message } }), answering as a provider's test mode does.
// It keeps the keys it has seen, like a real processor, so a retry gets the first answer and no second charge, and
// the authorisations still held (POST /v1/authorizations/{id}/void releases one).

export interface PaymentFake {
  url: string;
  /** Authorisations made, one per distinct idempotency key that succeeded. */
  authorizations: number;
  requests: number;
  /** Authorisation ids voided, in order. */
  voided: string[];
  /** Authorisations made and not voided: the holds on customers' cards. */
  held(): string[];
  close(): Promise<void>;
}

export async function startPaymentFake(apiKey: string): Promise<PaymentFake> {
  const seen = new Map<string, { status: number; body: string }>();
  const fake = { authorizations: 0, requests: 0 };
  const authorized = new Set<string>();
  const voided: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      fake.requests += 1;
      const reply = (status: number, body: string) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(body);
      };
      const voiding = /^\/v1\/authorizations\/([^/]+)\/void$/.exec(request.url ?? '');
      if (request.method !== 'POST' || (request.url !== '/v1/authorizations' && !voiding)) return reply(404, '{"error":{"code":"not_found"}}');
      if (request.headers.authorization !== `Bearer ${apiKey}`) return reply(401, '{"error":{"code":"unauthorized"}}');
      if (voiding) {
        const id = decodeURIComponent(voiding[1]!);
        if (!authorized.has(id)) return reply(404, '{"error":{"code":"not_found"}}');
        if (voided.includes(id)) return reply(409, '{"error":{"code":"already_voided"}}');
        voided.push(id);
        return reply(200, JSON.stringify({ id, object: 'authorization', status: 'voided' }));
      }
      const key = String(request.headers['idempotency-key'] ?? '');
      const earlier = seen.get(key);
      if (earlier) return reply(earlier.status, earlier.body);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { amount: number; card: { number: string; exp_month: number; exp_year: number; cvc: string; name: string } };
      const outcome = testModeOutcome(
        { idempotencyKey: key, amountCents: body.amount, card: { number: body.card.number, expMonth: body.card.exp_month, expYear: body.card.exp_year, cvc: body.card.cvc, name: body.card.name } },
        new Date(),
      );
      const answer =
        outcome.status === 'authorized'
          ? { status: 200, body: JSON.stringify({ id: outcome.authorizationId, object: 'authorization', amount: outcome.amountCents, card: { brand: outcome.brand, last4: outcome.last4 } }) }
          : { status: 402, body: JSON.stringify({ error: { code: outcome.reason, message: outcome.message } }) };
      if (answer.status === 200) {
        fake.authorizations += 1;
        if (outcome.status === 'authorized') authorized.add(outcome.authorizationId);
      }
      seen.set(key, answer);
      reply(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get authorizations() {
      return fake.authorizations;
    },
    get requests() {
      return fake.requests;
    },
    voided,
    held: () => [...authorized].filter((id) => !voided.includes(id)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
