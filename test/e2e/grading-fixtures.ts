import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { CardResult } from '../../src/contracts/cards.ts';
import type { VisionModelAnswer } from '../../src/infra/identification/vision-model-identifier.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import type { SyntheticCardSpec } from '../../src/vision/index.ts';

// What the grading, collection and achievement browser tests share: synthetic card photos (the vision engineer's
// seeded generator), a loopback server that hosts them as image URLs, and a fake OpenAI-compatible vision model
// that names the cards, so the screens show names, sets, rarities and labelled prices.

export const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'card-grader-grading-e2e-'));
afterAll(() => fs.rmSync(tempDir, { recursive: true, force: true }));

/** A card with 3.6 / 2.4 mm side borders (60/40) and a 15 mm scratch: measurements a person can check on screen. */
export const OFF_CENTRE_SCRATCHED: SyntheticCardSpec = {
  borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 },
  defects: [{ kind: 'scratch', x: 31.5, y: 50, lengthMm: 15, angleDeg: 30 }],
  photo: { noise: 2 },
};

/**
 * Renders a synthetic card photo and writes it to a temp file; the same spec and seed give the same bytes.
 * 12 px/mm unless the spec says otherwise: measured as well as at 20 (no photo hint), and rendered 3× faster.
 */
export async function syntheticCardFile(name: string, spec: SyntheticCardSpec, seed: number): Promise<{ file: string; bytes: Uint8Array }> {
  const bytes = await renderSyntheticCard({ pxPerMm: 12, ...spec }, seed);
  const file = path.join(tempDir, name);
  fs.writeFileSync(file, bytes);
  return { file, bytes };
}

/** Serves `/name` → JPEG bytes on 127.0.0.1, the way a marketplace hosts card photos. */
export function useImageServer() {
  const images = new Map<string, Uint8Array>();
  const server = http.createServer((request, response) => {
    const bytes = images.get(request.url ?? '');
    if (!bytes) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': bytes.length }).end(bytes);
  });
  let baseUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    /** Hosts the bytes and answers their URL. */
    host(name: string, bytes: Uint8Array): string {
      images.set(`/${name}`, bytes);
      return `${baseUrl}/${name}`;
    },
  };
}

/** The JSON object the vision model answers with. */
type ModelAnswer = VisionModelAnswer;

const UNKNOWN: ModelAnswer = {
  cardName: null,
  cardSet: null,
  cardNumber: null,
  rarity: null,
  cardFacts: null,
  setDescription: null,
  estimatedValueUsd: null,
  psa10ValueUsd: null,
};

/**
 * A fake OpenAI-compatible vision model on loopback speaking the chat completions wire format. It answers every
 * request with the card set by `identifyAs` (an unknown card until then). Call before useBrowserSession():
 * it sets OPENAI_API_KEY and OPENAI_BASE_URL for the server that session starts.
 */
export function useFakeVisionModel() {
  let answer = UNKNOWN;
  let requests = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      requests += 1;
      const body = {
        id: `chatcmpl-${requests}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'fake-vision',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(answer) } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.env.OPENAI_API_KEY = 'test-key';
    process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    process.env.OPENAI_MODEL = 'fake-vision';
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    identifyAs(card: Partial<ModelAnswer>) {
      answer = { ...UNKNOWN, ...card };
    },
  };
}

/**
 * Grades photos through the API in the page's browser context (its cookies, its Origin), as the upload card would,
 * then saves the card to the collection as Save to Collection would (grading alone is not saving); `save: false`
 * leaves it graded only.
 */
export async function gradeThroughApi(
  page: Page,
  baseUrl: string,
  photos: { front: Uint8Array; back?: Uint8Array },
  options: { save?: boolean } = {},
): Promise<CardResult> {
  const multipart: Record<string, { name: string; mimeType: string; buffer: Buffer } | string> = {
    frontImage: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photos.front) },
    cardType: 'pokemon',
  };
  if (photos.back) multipart.backImage = { name: 'back.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photos.back) };
  const response = await page.request.post('/api/grade-card', { headers: { Origin: baseUrl }, multipart, timeout: 60_000 });
  if (!response.ok()) throw new Error(`grading failed: ${response.status()} ${await response.text()}`);
  const result = (await response.json()) as CardResult;
  if (options.save ?? true) {
    const saved = await page.request.post(`/api/card/${result.id}/save`, { headers: { Origin: baseUrl } });
    if (!saved.ok()) throw new Error(`saving failed: ${saved.status()} ${await saved.text()}`);
  }
  return result;
}

/** One frame of YUV4MPEG2 (4:2:0, BT.601) from packed RGB: what Chromium's fake camera repeats from a file. */
export function y4mFrame(rgb: Buffer, width: number, height: number): Buffer {
  return y4mVideo([rgb], width, height, 30);
}

/** A YUV4MPEG2 video of RGB frames, all `width` × `height` (even), played at `fps` (Chromium's fake camera loops it). */
export function y4mVideo(frames: readonly Buffer[], width: number, height: number, fps: number): Buffer {
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`), ...frames.flatMap((rgb) => [Buffer.from('FRAME\n'), ...yuv420(rgb, width, height)])]);
}

function yuv420(rgb: Buffer, width: number, height: number): Buffer[] {
  const y = Buffer.alloc(width * height);
  const cw = width / 2;
  const ch = height / 2;
  const u = Buffer.alloc(cw * ch);
  const v = Buffer.alloc(cw * ch);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 3;
      y[row * width + col] = Math.round(0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!);
    }
  }
  for (let row = 0; row < ch; row++) {
    for (let col = 0; col < cw; col++) {
      const i = (row * 2 * width + col * 2) * 3;
      const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
      u[row * cw + col] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)));
      v[row * cw + col] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)));
    }
  }
  return [y, u, v];
}
