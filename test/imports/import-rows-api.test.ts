import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRowsPageSchema, importRowViewSchema } from '../../src/contracts/imports.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { samplePhoto, startCardsApp, type CardsHarness } from '../http/cards-harness.ts';
import { finished, upload } from './imports-harness.ts';

// Every row's outcome through GET /api/imports/{id}/rows (paged, filtered, the owner's only), a failed row's URLs
// fixed with PATCH and retried, and the failed rows as a CSV with the template's columns that imports again. The
// photos come from a loopback server; a path it does not know answers 404.

// Alone it takes 7 s; with other suites on the machine's two cores it took over 30 s.
describe.each([await routeDatabaseKind()])('an import\'s rows on %s', (kind) => {
  let h: CardsHarness;
  let origin: string;
  let server: http.Server;
  beforeAll(async () => {
    const [one, two] = await Promise.all([samplePhoto(1), samplePhoto(2)]);
    const photos: Record<string, Buffer> = { '/one.jpg': one, '/two.jpg': two };
    server = http.createServer((request, response) => {
      const photo = photos[request.url ?? ''];
      if (!photo) return response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(photo.length) }).end(photo);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h = await startCardsApp(kind, { IMAGE_FETCH_TIMEOUT_MS: '1500', IMPORT_ROW_ATTEMPTS: '1', IMPORT_RETRY_DELAY_MS: '20' });
  });
  afterAll(async () => {
    await h?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('shows every row with its outcome, pages and filters them, and lets the owner alone fix, download and retry the failed ones', async () => {
    const { browser } = await h.registered();
    const other = await h.registered();
    const guest = h.browser();
    const csv = [
      'FrontImage,BackImage,ItemID',
      `${origin}/one.jpg,,A-2`, // 2 graded
      `${origin}/missing-3.jpg,,A-3`, // 3 failed: 404
      'not a url,,A-4', // 4 failed: not a URL
      `${origin}/one.jpg,,A-5`, // 5 duplicate of row 2
      `${origin}/missing-6.jpg,${origin}/missing-6b.jpg,=SUM(1)`, // 6 failed: 404, an ItemID a spreadsheet would run
      `${origin}/missing-7.jpg,,"A,7"`, // 7 failed: 404
    ].join('\n');
    const started = await upload(browser, { bytes: Buffer.from(csv), filename: 'my cards.csv' });
    expect(started.statusCode, started.body).toBe(200);
    const importId = started.json().importId as string;
    expect(await finished(h, browser, importId, 60_000)).toMatchObject({ status: 'completed', successfulCards: 1, duplicateCards: 1, failedCards: 4 });

    // Every row, by number, with its URLs and its outcome.
    const all = await browser.get(`/api/imports/${importId}/rows`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.headers['cache-control']).toBe('private, no-store');
    const page = importRowsPageSchema.parse(all.json());
    expect({ ...page, rows: [] }).toEqual({ rows: [], page: 1, pageSize: 50, total: 6 });
    expect(page.rows.map((r) => [r.row, r.status, r.itemId])).toEqual([
      [2, 'graded', 'A-2'], [3, 'failed', 'A-3'], [4, 'failed', 'A-4'], [5, 'duplicate', 'A-5'], [6, 'failed', '=SUM(1)'], [7, 'failed', 'A,7'],
    ]);
    const byRow = new Map(page.rows.map((r) => [r.row, r]));
    expect(byRow.get(2)).toMatchObject({ frontImageUrl: `${origin}/one.jpg`, backImageUrl: null, reason: null });
    expect(byRow.get(2)!.cardId).toEqual(expect.any(String));
    expect(byRow.get(3)!.reason).toBe('Front image: The image could not be downloaded: the server answered with HTTP 404.');
    expect(byRow.get(4)).toMatchObject({ frontImageUrl: 'not a url', reason: 'FrontImage is not a valid web address: it must be a direct http(s) image URL.' });
    expect(byRow.get(5)!.reason).toBe('The same images as row 2 of this file.');
    expect(byRow.get(6)).toMatchObject({ backImageUrl: `${origin}/missing-6b.jpg` });
    for (const row of page.rows) expect(row.reason ?? '').not.toMatch(/\b(E[A-Z]{3,}|[a-z]+_[a-z_]+)\b/);

    // Filtered and paged.
    const failedPage2 = importRowsPageSchema.parse((await browser.get(`/api/imports/${importId}/rows?status=failed&page=2&pageSize=3`)).json());
    expect(failedPage2).toMatchObject({ page: 2, pageSize: 3, total: 4 });
    expect(failedPage2.rows.map((r) => r.row)).toEqual([7]);
    const failedPage1 = importRowsPageSchema.parse((await browser.get(`/api/imports/${importId}/rows?status=failed&pageSize=3`)).json());
    expect(failedPage1.rows.map((r) => r.row)).toEqual([3, 4, 6]);
    expect(importRowsPageSchema.parse((await browser.get(`/api/imports/${importId}/rows?status=failed&page=3&pageSize=3`)).json()).rows).toEqual([]);
    expect(importRowsPageSchema.parse((await browser.get(`/api/imports/${importId}/rows?status=pending`)).json()).total).toBe(0);

    // Refused queries: the one error shape.
    for (const query of ['status=broken', 'page=0', 'page=abc', 'pageSize=0', 'pageSize=201', 'sort=row']) {
      const refused = await browser.get(`/api/imports/${importId}/rows?${query}`);
      expect({ query, status: refused.statusCode, code: refused.json().code }).toEqual({ query, status: 400, code: 'invalid_request' });
      expect(refused.json().error).toEqual(expect.any(String));
    }

    // Another user's import, an unknown one and a guest: 404, 404, 401; nothing edited.
    for (const [method, url, payload] of [
      ['GET', `/api/imports/${importId}/rows`, undefined],
      ['GET', `/api/imports/${importId}/rows?status=failed`, undefined],
      ['GET', `/api/imports/${importId}/failed-rows.csv`, undefined],
      ['PATCH', `/api/imports/${importId}/rows/3`, { frontImageUrl: `${origin}/two.jpg` }],
    ] as const) {
      const refused = await other.browser.send({ method, url, ...(payload ? { payload } : {}) });
      expect({ url, status: refused.statusCode, code: refused.json().code }).toEqual({ url, status: 404, code: 'import_not_found' });
      expect((await guest.send({ method, url, ...(payload ? { payload } : {}) })).statusCode).toBe(401);
    }
    for (const unknown of ['6b1f0c2e-3d4a-4b5c-8d6e-7f8091a2b3c4', 'not-an-id']) {
      expect((await browser.get(`/api/imports/${unknown}/rows`)).json().code).toBe('import_not_found');
    }

    // Editing: failed rows only, with URLs that could be fetched.
    const edit = (row: string | number, body: object) => browser.patch(`/api/imports/${importId}/rows/${row}`, body);
    const refusals = [
      [2, { frontImageUrl: `${origin}/two.jpg` }, 409, 'import_row_not_failed'],
      [5, { frontImageUrl: `${origin}/two.jpg` }, 409, 'import_row_not_failed'],
      [99, { frontImageUrl: `${origin}/two.jpg` }, 404, 'import_row_not_found'],
      ['x', { frontImageUrl: `${origin}/two.jpg` }, 404, 'import_row_not_found'],
      [4, { frontImageUrl: 'ftp://example.com/a.jpg' }, 400, 'import_row_invalid_url'],
      [4, { frontImageUrl: `${origin}/two.jpg`, backImageUrl: 'nope' }, 400, 'import_row_invalid_url'],
      [4, { frontImageUrl: 42 }, 400, 'invalid_request'],
      [4, { frontImageUrl: `${origin}/two.jpg`, status: 'graded' }, 400, 'invalid_request'],
    ] as const;
    for (const [row, body, status, code] of refusals) {
      const refused = await edit(row, body);
      expect({ row, body, status: refused.statusCode, code: refused.json().code }).toEqual({ row, body, status, code });
    }
    const edited = await edit(4, { frontImageUrl: `  ${origin}/two.jpg `, backImageUrl: '' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(importRowViewSchema.parse(edited.json())).toMatchObject({ row: 4, frontImageUrl: `${origin}/two.jpg`, backImageUrl: null, status: 'failed' });

    // The failed rows as a CSV: the template's columns, the fixed URL, cells a spreadsheet would run made harmless.
    const file = await browser.get(`/api/imports/${importId}/failed-rows.csv`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="my-cards-failed-rows.csv"');
    expect(file.body).toBe(
      `\uFEFFFrontImage,BackImage,ItemID\r\n${origin}/missing-3.jpg,,A-3\r\n${origin}/two.jpg,,A-4\r\n${origin}/missing-6.jpg,${origin}/missing-6b.jpg,'=SUM(1)\r\n${origin}/missing-7.jpg,,"A,7"\r\n`,
    );
    // Retry: the fixed row is graded, the others fail again with their reasons.
    const retried = await browser.post(`/api/imports/${importId}/retry-failed`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await finished(h, browser, importId, 60_000)).toMatchObject({ status: 'completed', successfulCards: 2, failedCards: 3, processedCards: 6, progress: 100 });
    const after = importRowsPageSchema.parse((await browser.get(`/api/imports/${importId}/rows`)).json());
    expect(after.rows.map((r) => [r.row, r.status])).toEqual([[2, 'graded'], [3, 'failed'], [4, 'graded'], [5, 'duplicate'], [6, 'failed'], [7, 'failed']]);
    expect(after.rows.find((r) => r.row === 3)!.reason).toMatch(/HTTP 404/);

    // The downloaded CSV imports again as it is.
    const again = await upload(browser, { bytes: file.rawPayload, filename: 'my-cards-failed-rows.csv' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ total: 4, failed: 0, duplicates: 0 });
    await finished(h, browser, again.json().importId, 60_000);


    // Documented with the rest of the API.
    const paths = (await guest.get('/api/openapi.json')).json().paths as Record<string, Record<string, { parameters?: { name: string }[] }>>;
    expect(paths['/api/imports/{id}/rows']!.get!.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['id', 'status', 'page', 'pageSize']));
    expect(paths['/api/imports/{id}/rows/{row}']!.patch).toBeDefined();
    expect(paths['/api/imports/{id}/failed-rows.csv']!.get).toBeDefined();

    // A rebuild from the log gives the same rows, edit included.
    const live = await h.database.db.selectFrom('import_cards').selectAll().orderBy('id').execute();
    await rebuildProjection(h.database, h.runtime.eventStore, inlineProjections.find((p) => p.name === 'imports')!, 'inline');
    expect(await h.database.db.selectFrom('import_cards').selectAll().orderBy('id').execute()).toEqual(live);
  }, 120_000);
});
