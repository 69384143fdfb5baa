import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as XLSX from '@e965/xlsx';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importProgressSchema, type ImportProgress } from '../../src/contracts/imports.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { samplePhoto, startCardsApp, type Browser, type CardsHarness } from '../http/cards-harness.ts';
import { finished, upload, workbook } from './imports-harness.ts';

// Bulk import through the real app on both engines: the template, an upload of rows pointing at a loopback image
// server (good photos, a repeat, a card already collected, broken, private, hanging and oversized images), every
// row one outcome, the cards in the collection (ItemID as comcId) and the portfolio, live progress to the owner only,
// another user and a guest refused, retry of the failed rows, delete, and a rebuild equal to the live read models.

interface ImageServer {
  origin: string;
  serveLate: boolean;
  close(): Promise<void>;
}

async function startImageServer(photos: Record<string, Buffer>, hugePng: Buffer): Promise<ImageServer> {
  const state = { serveLate: false };
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/hang.jpg') return; // never answers
    if (path === '/huge.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(hugePng);
    const photo = path === '/late.jpg' ? (state.serveLate ? photos['late'] : undefined) : photos[path.slice(1).replace(/\.jpg$/, '')];
    if (!photo) return response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(photo.length) }).end(photo);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get serveLate() {
      return state.serveLate;
    },
    set serveLate(value: boolean) {
      state.serveLate = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A socket on GET /ws with this browser's cookie, collecting what it receives. */
async function openSocket(h: CardsHarness, browser: Browser) {
  const messages: ImportProgress[] = [];
  const socket = await h.app.injectWS('/ws', { headers: { host: 'cards.test', ...(browser.jar.sid ? { cookie: `sid=${browser.jar.sid}` } : {}) } });
  socket.on('message', (data: Buffer) => messages.push(importProgressSchema.parse(JSON.parse(data.toString()))));
  return { messages, close: () => socket.terminate() };
}

describe.each([await routeDatabaseKind()])('bulk import API on %s', (kind) => {
  let h: CardsHarness;
  let images: ImageServer;
  beforeAll(async () => {
    const [one, two, three, four, five] = await Promise.all([samplePhoto(1), samplePhoto(2), samplePhoto(3), samplePhoto(4), samplePhoto(5)]);
    const hugePng = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#888' } }).png().toBuffer();
    images = await startImageServer({ one, two, three, four, late: five }, hugePng);
    h = await startCardsApp(kind, { IMAGE_FETCH_TIMEOUT_MS: '1500', IMAGE_MAX_PIXELS: '20000000', IMPORT_ROW_ATTEMPTS: '2', IMPORT_RETRY_DELAY_MS: '20' });
  });
  afterAll(async () => {
    await h?.close();
    await images?.close();
  });

  it('downloads a real .xlsx template with the three columns, an example row and a sheet explaining them', async () => {
    const response = await h.browser().get('/api/download-template');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe('attachment; filename="card-import-template.xlsx"');
    const book = XLSX.read(response.rawPayload, { type: 'buffer' });
    expect(book.SheetNames).toEqual(['Cards', 'Instructions']);
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets.Cards!, { header: 1 });
    expect(rows[0]).toEqual(['FrontImage', 'BackImage', 'ItemID']);
    expect(rows[1]![0]).toMatch(/^https:\/\//);
  });

  it('grades every row once: graded into the collection and the portfolio, duplicates and failures with their reasons', async () => {
    const { browser, user } = await h.registered();
    const other = await h.registered();
    const guest = h.browser();
    await guest.get('/api/user');
    // A card the user already has: graded and saved (grading alone is not saving).
    const saved = await browser.grade([['frontImageUrl', `${images.origin}/four.jpg`]]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await browser.post(`/api/card/${saved.json().id}/save`)).statusCode).toBe(200);

    const [mine, theirs, guests] = await Promise.all([openSocket(h, browser), openSocket(h, other.browser), openSocket(h, guest)]);
    const o = images.origin;
    const file = workbook(
      [
        [`${o}/one.jpg`, `${o}/two.jpg`, 'COMC-1'], // 2 graded, front and back
        [`${o}/three.jpg`, '', ''], // 3 graded
        [`${o}/three.jpg`, '', 'again'], // 4 duplicate of row 3
        [`${o}/missing.jpg`, '', ''], // 5 404
        ['not a url', '', ''], // 6 invalid
        ['', '', ''], // 7 blank: skipped
        ['http://10.0.0.7/card.jpg', '', ''], // 8 private address
        [`${o}/hang.jpg`, '', ''], // 9 never answers
        [`${o}/huge.png`, '', ''], // 10 over the pixel limit
        [`${o}/four.jpg`, '', ''], // 11 already in the collection
        [`${o}/late.jpg`, '', ''], // 12 404 now, served for the retry
      ],
      ['Front Image', 'back_image_url', 'Item ID'],
    );
    const response = await upload(browser, { bytes: file, filename: 'my cards.xlsx' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ total: 10, toProcess: 8, duplicates: 1, failed: 1, successful: 0, stats: { total: 10, toProcess: 8, duplicates: 1, failed: 1 } });

    const record = await finished(h, browser, body.importId);
    expect(record).toMatchObject({ status: 'completed', fileName: 'my cards.xlsx', fileSize: file.length, totalCards: 10, processedCards: 10, successfulCards: 2, duplicateCards: 2, failedCards: 6, progress: 100, currentStage: 'completed' });
    expect(record.completedAt).not.toBeNull();

    // Every row exactly one outcome, with its reason.
    const rows = await h.database.db.selectFrom('import_cards').selectAll().where('import_id', '=', body.importId).orderBy('row_number').execute();
    expect(rows.map((r) => [r.row_number, r.status])).toEqual([
      [2, 'graded'], [3, 'graded'], [4, 'duplicate'], [5, 'failed'], [6, 'failed'], [8, 'failed'], [9, 'failed'], [10, 'failed'], [11, 'duplicate'], [12, 'failed'],
    ]);
    const reason = (row: number) => rows.find((r) => r.row_number === row)!.error_message;
    expect(reason(5)).toMatch(/HTTP 404/);
    expect(reason(6)).toMatch(/FrontImage is not a valid web address/);
    expect(reason(8)).toMatch(/private network address/);
    expect(reason(9)).toMatch(/longer than 1.5 s/);
    expect(reason(10)).toMatch(/pixel|large/i);
    expect(reason(11)).toBe('This card is already in your collection.');
    const outcomes = await sql<{ stream_id: string; n: number }>`select stream_id, count(*)::int as n from es_events where stream_id like ${`import-row-${body.importId}-%`} group by stream_id`.execute(h.database.db);
    expect(outcomes.rows).toHaveLength(10);
    expect(outcomes.rows.every((r) => r.n === 1)).toBe(true);

    // In the collection (ItemID kept as the marketplace id) and in the portfolio, with the ItemID in the notes.
    const cards = (await browser.get('/api/my-cards')).json() as { id: string; comcId: string | null }[];
    expect(cards).toHaveLength(3);
    const graded = rows.filter((r) => r.status === 'graded');
    expect(cards.find((c) => c.id === graded[0]!.card_id)!.comcId).toBe('COMC-1');
    const portfolio = (await browser.get('/api/portfolio')).json() as { id: number; notes: string | null; userId: string; estimatedGrade: number | null }[];
    expect(portfolio.map((c) => c.id).sort()).toEqual(graded.map((r) => r.portfolio_card_id).sort());
    expect(portfolio.find((c) => c.id === graded[0]!.portfolio_card_id)!.notes).toContain('Item ID: COMC-1');
    expect(portfolio.every((c) => c.userId === user.id && c.estimatedGrade !== null)).toBe(true);

    // Live progress: to the owner only, never backwards, ending complete.
    await expect.poll(() => mine.messages.at(-1)?.stage, { timeout: 5_000 }).toBe('completed');
    const progress = mine.messages.filter((m) => m.importId === body.importId);
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThanOrEqual(progress[i - 1]!.progress);
    expect(progress.at(-1)).toMatchObject({ type: 'import-progress', current: 10, total: 10, progress: 100, failed: 6, duplicates: 2, stage: 'completed' });
    for (const key of ['currentCard', 'estimatedTimeRemaining', 'averageTimePerCard', 'message']) expect(progress.at(-1)).toHaveProperty(key);
    expect(theirs.messages).toEqual([]);
    expect(guests.messages).toEqual([]);
    for (const socket of [mine, theirs, guests]) socket.close();

    // Another user and a guest: nothing to see, delete, cancel or retry.
    expect((await other.browser.get('/api/imports')).json()).toEqual([]);
    for (const [method, url] of [['GET', `/api/imports/${body.importId}`], ['DELETE', `/api/imports/${body.importId}`], ['POST', `/api/imports/${body.importId}/cancel`], ['POST', `/api/imports/${body.importId}/retry-failed`]] as const) {
      const refused = await other.browser.send({ method, url });
      expect({ url, method, status: refused.statusCode, code: refused.json().code }).toEqual({ url, method, status: 404, code: 'import_not_found' });
      expect((await guest.send({ method, url })).statusCode).toBe(401);
    }
    expect((await guest.get('/api/imports')).statusCode).toBe(401);
    const guestUpload = await upload(guest, { bytes: file, filename: 'cards.xlsx' });
    expect(guestUpload.statusCode).toBe(401);

    // Retry of the failed rows: the image that was missing is there now.
    images.serveLate = true;
    const retried = await browser.post(`/api/imports/${body.importId}/retry-failed`);
    expect(retried.statusCode, retried.body).toBe(200);
    const again = await finished(h, browser, body.importId);
    expect(again).toMatchObject({ status: 'completed', processedCards: 10, successfulCards: 3, failedCards: 5, progress: 100 });
    expect((await browser.get('/api/portfolio')).json()).toHaveLength(3);

    // A rebuild from the log equals the live read models.
    const live = await h.database.db.selectFrom('import_cards').selectAll().orderBy('id').execute();
    const liveImports = await h.database.db.selectFrom('imports').selectAll().orderBy('id').execute();
    await rebuildProjection(h.database, h.runtime.eventStore, inlineProjections.find((p) => p.name === 'imports')!, 'inline');
    expect(await h.database.db.selectFrom('import_cards').selectAll().orderBy('id').execute()).toEqual(live);
    expect(await h.database.db.selectFrom('imports').selectAll().orderBy('id').execute()).toEqual(liveImports);

    // Delete: gone from the list, the graded cards stay.
    const deleted = await browser.delete(`/api/imports/${body.importId}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Import Deleted' });
    expect((await browser.get('/api/imports')).json()).toEqual([]);
    expect((await browser.get('/api/my-cards')).json()).toHaveLength(4);
  });

  it('cancels a running import: the rows not yet worked on are left alone', async () => {
    const { browser } = await h.registered();
    const file = Buffer.from(`FrontImage\n${Array.from({ length: 40 }, () => `${images.origin}/hang.jpg`).map((u, i) => `${u}?${i}`).join('\n')}\n`);
    const started = await upload(browser, { bytes: file, filename: 'hanging.csv' });
    expect(started.statusCode, started.body).toBe(200);
    const cancelled = await browser.post(`/api/imports/${started.json().importId}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    const list = (await browser.get('/api/imports')).json() as { status: string }[];
    expect(list.map((i) => i.status)).toEqual(['cancelled']);
  });
});
