import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { identificationSchema } from '../../src/contracts/grading.ts';
import type { CardPicture } from '../../src/infra/identification/card-identifier.ts';
import { createOcrIdentifier } from '../../src/infra/identification/ocr-identifier.ts';
import { createVisionModelIdentifier } from '../../src/infra/identification/vision-model-identifier.ts';
import { renderNamedCard } from './named-card.ts';

// A loopback server speaking the chat-completions wire format stands in for the model provider.

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  body: {
    model: string;
    response_format?: { type: string };
    messages: { role: string; content: string | { type: string; image_url?: { url: string } }[] }[];
  };
}

type Reply = (response: http.ServerResponse) => void;

let reply: Reply;
let received: Received[] = [];
let server: http.Server;
let baseURL: string;
let front: CardPicture;
let back: CardPicture;
const ocr = createOcrIdentifier();
const fallbacks: string[] = [];

const completion = (content: string): Reply => (response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'test-vision-model',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 900, completion_tokens: 80, total_tokens: 980 },
    }),
  );
};

const goodAnswer = {
  cardName: 'Pikachu',
  cardSet: 'Base Set',
  cardNumber: '58/102',
  rarity: 'Common',
  cardFacts: 'Pikachu from the 1999 Base Set, illustrated by Mitsuhiro Arita.',
  setDescription: 'The first English Pokémon TCG set.',
  estimatedValueUsd: 1234.5,
  psa10ValueUsd: 250,
};

function identifier(timeoutMs = 5_000) {
  return createVisionModelIdentifier({
    apiKey: 'test-key',
    baseURL,
    model: 'test-vision-model',
    timeoutMs,
    fallback: ocr,
    onFallback: (reason) => fallbacks.push(reason),
  });
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, body: JSON.parse(body) });
      reply(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  front = await renderNamedCard({ name: 'Pikachu', number: '58/102', seed: 11 });
  back = await renderNamedCard({ name: '', number: '', seed: 12 });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ocr.close();
});

beforeEach(() => {
  received = [];
  fallbacks.length = 0;
});

describe('identification by an OpenAI-compatible vision model', () => {
  it('asks the configured model at the configured address, with both sides, and uses its answer', async () => {
    reply = completion(JSON.stringify({ ...goodAnswer, rarity: 'Rare Holo' }));
    const result = await identifier().identify(front, back);

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.authorization).toBe('Bearer test-key');
    expect(request!.body.model).toBe('test-vision-model');
    expect(request!.body.response_format).toEqual({ type: 'json_object' });
    const parts = request!.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    expect(parts.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url.slice(0, 23))).toEqual([
      'data:image/jpeg;base64,',
      'data:image/jpeg;base64,',
    ]);

    expect(identificationSchema.parse(result)).toEqual(result);
    // The answer is checked against the catalogue: its card, set, number and rarity; the model's texts and estimate kept.
    expect(result).toEqual({
      source: 'vision-model',
      cardName: 'Pikachu',
      cardSet: 'Base',
      cardNumber: '58/102',
      rarity: 'Common',
      cardFacts: goodAnswer.cardFacts,
      setDescription: goodAnswer.setDescription,
      estimatedValue: { text: '$1,234.50', label: 'estimate by test-vision-model, not market data' },
      psa10Value: { text: '$250.00', label: 'estimate by test-vision-model, PSA 10, not market data' },
      model: 'test-vision-model',
      catalogId: 'base1-58',
      catalogConfidence: 1,
      cardYear: '1999',
    });
    expect(fallbacks).toEqual([]);
  });

  it('takes OCR\'s catalogue match over a model answer the catalogue does not know', async () => {
    reply = completion(JSON.stringify({ ...goodAnswer, cardName: 'Zorblax', cardNumber: '12/345', rarity: 'Rare Holo' }));
    const result = await identifier().identify(front);
    expect(result).toMatchObject({ source: 'vision-model', cardName: 'Pikachu', cardSet: 'Base', catalogId: 'base1-58', model: 'test-vision-model' });
    expect(result.estimatedValue?.text).toBe('$1,234.50');
  });

  it('takes an answer wrapped in a code fence, and fills what the model left out from OCR', async () => {
    reply = completion('```json\n' + JSON.stringify({ cardName: 'Pikachu', cardSet: 'Base Set' }) + '\n```');
    const result = await identifier().identify(front);
    expect(result).toMatchObject({ source: 'vision-model', cardName: 'Pikachu', cardSet: 'Base', cardNumber: '58/102', catalogId: 'base1-58', estimatedValue: null });
  });

  const fallsBack = async (timeoutMs?: number) => {
    const started = performance.now();
    const result = await identifier(timeoutMs).identify(front, back);
    expect(result).toEqual({ ...(await ocr.identify(front)), source: 'ocr' });
    expect(result).toMatchObject({ cardName: 'Pikachu', cardNumber: '58/102', estimatedValue: null, model: null });
    expect(fallbacks).toHaveLength(1);
    return performance.now() - started;
  };

  it('falls back to OCR on an answer that is not JSON', async () => {
    reply = completion('Sure! This looks like a Pikachu from Base Set.');
    await fallsBack();
    expect(fallbacks[0]).toContain('SyntaxError');
  });

  it('falls back to OCR on JSON that does not fit the schema', async () => {
    reply = completion(JSON.stringify({ ...goodAnswer, cardName: 42, estimatedValueUsd: 'lots' }));
    await fallsBack();
    expect(fallbacks[0]).toContain('ZodError');
  });

  it('falls back to OCR on HTTP 500, without retrying', async () => {
    reply = (response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'The server had an error', type: 'server_error', code: null } }));
    };
    await fallsBack();
    expect(received).toHaveLength(1);
    expect(fallbacks[0]).toContain('500');
  });

  it('falls back to OCR when the model takes too long', async () => {
    reply = () => {}; // never answers
    const elapsed = await fallsBack(400);
    expect(elapsed).toBeLessThan(3_000);
    expect(fallbacks[0]).toMatch(/timed out|timeout/i);
  });

  it('falls back to OCR when the model cannot tell which card it is', async () => {
    reply = completion(JSON.stringify({ cardName: null, cardNumber: null, cardFacts: 'A trading card.' }));
    await fallsBack();
  });
});
