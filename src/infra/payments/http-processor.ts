import { AppError } from '../../contracts/errors.ts';
import type { AuthorizeOutcome, DeclineReason, PaymentProcessor } from './types.ts';

// A payment provider over HTTP, with the shape most card APIs share: POST /v1/authorizations with a bearer key
// and an Idempotency-Key header; 200 with the authorisation, 402 with `{ error: { code, message } }` for a decline.
// Card details go in the body over TLS to the provider only; nothing of them is logged here.

const REASONS: readonly DeclineReason[] = ['card_declined', 'insufficient_funds', 'expired_card', 'incorrect_number'];

export function httpPaymentProcessor(options: { baseUrl: string; apiKey: string; timeoutMs?: number }): PaymentProcessor {
  const unavailable = () => new AppError('unavailable', 'payment_unavailable', 'Payment is unavailable right now. Please try again in a moment.');
  return {
    name: 'http',
    async authorize(request): Promise<AuthorizeOutcome> {
      let response: Response;
      try {
        response = await fetch(new URL('/v1/authorizations', options.baseUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', 'idempotency-key': request.idempotencyKey },
          body: JSON.stringify({
            amount: request.amountCents,
            currency: request.currency,
            description: request.description,
            card: { number: request.card.number, exp_month: request.card.expMonth, exp_year: request.card.expYear, cvc: request.card.cvc, name: request.card.name },
          }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch {
        throw unavailable();
      }
      const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      if (response.status === 200 && body && typeof body.id === 'string') {
        const card = (body.card ?? {}) as Record<string, unknown>;
        return { status: 'authorized', authorizationId: body.id, brand: String(card.brand ?? 'Card'), last4: String(card.last4 ?? ''), amountCents: Number(body.amount) };
      }
      if (response.status === 402 && body) {
        const error = (body.error ?? {}) as Record<string, unknown>;
        const reason = REASONS.find((r) => r === error.code) ?? 'card_declined';
        return { status: 'declined', reason, message: typeof error.message === 'string' ? error.message : 'Your card was declined.' };
      }
      throw unavailable();
    },
    // POST /v1/authorizations/{id}/void; 404 or 409 (gone, or voided already) count as done.
    async void(authorizationId) {
      let response: Response;
      try {
        response = await fetch(new URL(`/v1/authorizations/${encodeURIComponent(authorizationId)}/void`, options.baseUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'idempotency-key': `void:${authorizationId}` },
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch {
        throw unavailable();
      }
      await response.body?.cancel();
      if (response.status !== 200 && response.status !== 404 && response.status !== 409) throw unavailable();
    },
  };
}
