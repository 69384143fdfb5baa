import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { expect } from 'vitest';
import type { GradePhotos } from '../../src/commands/cards/grade-card.ts';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import type { DatabaseKind } from '../../src/infra/database/index.ts';
import { asyncProjections } from '../../src/projections/index.ts';
import { projectionStatus } from '../../src/projections/runner/index.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

// The card routes through the real app (buildApp over a real runtime: engine, CPU pool, image store, event
// store, projections and their runners), as browsers use it: a cookie jar each, Origin on writes.

export const HOST = 'cards.test';
export const ORIGIN = `http://${HOST}`;
/** The origin of an app.inject call that names no Host (light-my-request sends localhost:80). */
export const INJECT_ORIGIN = 'http://localhost';

export interface CardsHarness {
  kind: DatabaseKind;
  config: Config;
  database: TestDatabase;
  runtime: Runtime;
  app: FastifyInstance;
  browser(): Browser;
  /** A browser signed in to a new account. */
  registered(): Promise<{ browser: Browser; user: { id: string; username: string } }>;
  /** Registers a new account from this browser (a guest until now); returns the user. */
  signUp(browser: Browser): Promise<{ id: string; username: string }>;
  /** Waits until every async projection has applied every event in the log (leaderboard, achievements). */
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

export interface Browser {
  jar: { sid: string | undefined };
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: object): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
  /** POST /api/grade-card (or `url`) with a multipart body. */
  grade(parts: FormParts, url?: string): Promise<LightMyRequestResponse>;
  patch(url: string, body?: object): Promise<LightMyRequestResponse>;
  put(url: string, body?: object): Promise<LightMyRequestResponse>;
  send(options: { method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT'; url: string; headers?: Record<string, string>; payload?: string | Buffer | object }): Promise<LightMyRequestResponse>;
}

/** Files (bytes, optional type and name) and text fields of a multipart form, in order. */
export type FormParts = Array<[name: string, value: string | { bytes: Uint8Array; type?: string; filename?: string }]>;

/** The body and content type a browser's fetch would send for this form. */
export async function multipartBody(parts: FormParts): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.bytes as Uint8Array<ArrayBuffer>], { type: value.type ?? 'image/jpeg' }), value.filename ?? `${name}.jpg`);
  }
  const request = new Request('http://form.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/**
 * The engine gives the same result for the same bytes (GRADING.md), so each distinct set of photos is graded once
 * per test run and the answer reused: a suite can grade the same pictures for many owners, on both databases,
 * and pay for the pixel work once.
 */
const gradedOnce = new Map<string, ReturnType<GradePhotos>>();
function gradingOnce(grade: GradePhotos): GradePhotos {
  const hash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  return (photos) => {
    const key = `${hash(photos.front)}:${photos.back ? hash(photos.back) : '-'}:${(photos.tilt ?? []).map(hash).join(',')}`;
    let graded = gradedOnce.get(key);
    if (!graded) {
      graded = grade(photos);
      gradedOnce.set(key, graded);
      graded.catch(() => gradedOnce.delete(key));
    }
    return graded;
  };
}

let nextAddress = 1;
let nextEmail = 1;

export async function startCardsApp(kind: DatabaseKind, env: Record<string, string> = {}, options: { logger?: Logger; runtime?: (runtime: Runtime) => Runtime } = {}): Promise<CardsHarness> {
  const database = await createTestDatabase(kind);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cards-test-'));
  // The browsers below reach the app at ORIGIN (Host cards.test), and bare app.inject calls at http://localhost
  // (light-my-request's default Host): those are its public origins.
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, CPU_POOL_SIZE: '2', ALLOW_LOOPBACK_IMAGE_URLS: 'true', PUBLIC_ORIGIN: `${ORIGIN},${INJECT_ORIGIN}`, ...env });
  const created = await createRuntime(config, { role: 'api', database, ...(options.logger ? { logger: options.logger } : {}) });
  const graded: Runtime = { ...created, gradePhotos: gradingOnce(created.gradePhotos) };
  const runtime = options.runtime ? options.runtime(graded) : graded;
  const app = await buildApp(runtime);
  await app.ready();

  function browser(): Browser {
    const address = `10.1.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
    const jar = { sid: undefined as string | undefined };
    const send: Browser['send'] = async ({ method, url, headers = {}, payload }) => {
      const all: Record<string, string> = { host: HOST, ...(method === 'GET' ? {} : { origin: ORIGIN }), ...headers };
      if (jar.sid) all.cookie = `sid=${jar.sid}`;
      const response = await app.inject({ method, url, headers: all, remoteAddress: address, ...(payload === undefined ? {} : { payload }) });
      const cookie = response.cookies.find((c) => c.name === 'sid');
      if (cookie) jar.sid = cookie.value === '' ? undefined : cookie.value;
      return response;
    };
    return {
      jar,
      send,
      get: (url) => send({ method: 'GET', url }),
      post: (url, body) => send({ method: 'POST', url, ...(body === undefined ? {} : { payload: body }) }),
      delete: (url) => send({ method: 'DELETE', url }),
      patch: (url, body) => send({ method: 'PATCH', url, ...(body === undefined ? {} : { payload: body }) }),
      put: (url, body) => send({ method: 'PUT', url, ...(body === undefined ? {} : { payload: body }) }),
      async grade(parts, url = '/api/grade-card') {
        const { body, contentType } = await multipartBody(parts);
        return send({ method: 'POST', url, headers: { 'content-type': contentType }, payload: body });
      },
    };
  }

  async function signUp(b: Browser) {
    const n = nextEmail++;
    const response = await b.post('/api/agscard/register', {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: `grader${n}-${Date.now()}@example.com`,
      phone: '5551234567',
      password: 'Secret123',
      password_confirmation: 'Secret123',
      is_marketing_notifications_enabled: false,
    });
    expect(response.statusCode).toBe(201);
    return response.json().user as { id: string; username: string };
  }

  async function registered() {
    const b = browser();
    return { browser: b, user: await signUp(b) };
  }

  async function catchUp() {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const statuses = await projectionStatus(database.db, { inline: [], async: asyncProjections });
      const failed = statuses.find((s) => s.status === 'failed');
      if (failed) throw new Error(`${failed.name} failed: ${failed.lastError}`);
      if (statuses.every((s) => s.lag === 0)) return;
      if (Date.now() > deadline) throw new Error(`projections did not catch up: ${JSON.stringify(statuses)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  return {
    kind,
    config,
    database,
    runtime,
    app,
    browser,
    registered,
    signUp,
    catchUp,
    async close() {
      await app.close();
      await runtime.close(2_000);
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The sample cards shipped with the app: small real photos of synthetic cards the engine grades. */
export async function samplePhoto(n: 1 | 2 | 3 | 4 | 5): Promise<Buffer> {
  const names = ['1-gem-mint.jpg', '2-off-center.jpg', '3-whitened-corner.jpg', '4-scratched.jpg', '5-edge-wear.jpg'];
  return readFile(new URL(names[n - 1]!, SAMPLE_CARDS_DIR));
}

/** A loopback HTTP server that serves the given photos at /<name>, and redirects at /redirect?to=… */
export async function startPhotoServer(photos: Record<string, Buffer>): Promise<{ origin: string; port: number; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://server');
    if (url.pathname === '/redirect') {
      response.writeHead(302, { location: url.searchParams.get('to') ?? '' });
      return response.end();
    }
    const photo = photos[url.pathname.slice(1)];
    if (!photo) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      return response.end('Not found');
    }
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(photo.length) });
    response.end(photo);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function expectRefused(response: LightMyRequestResponse, status: number, code: string, error?: string | RegExp) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
  const body = response.json() as { error: string; code: string };
  if (typeof error === 'string') expect(body.error).toBe(error);
  else if (error) expect(body.error).toMatch(error);
  return body;
}
