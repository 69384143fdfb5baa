import * as XLSX from '@e965/xlsx';
import { expect } from 'vitest';
import { importRecordSchema, type ImportRecord } from '../../src/contracts/imports.ts';
import type { Browser, CardsHarness } from '../http/cards-harness.ts';

// What the import tests share: a spreadsheet from rows, an upload from a browser, and waiting for an import to end.

/** An .xlsx with the template's header (or `header`) and these rows. */
export function workbook(rows: readonly (readonly string[])[], header: readonly string[] = ['FrontImage', 'BackImage', 'ItemID']): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([[...header], ...rows.map((r) => [...r])]), 'Cards');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

export function upload(browser: Browser, file: { bytes: Uint8Array; filename: string; type?: string }) {
  return browser.grade([['file', { bytes: file.bytes, filename: file.filename, type: file.type ?? 'application/octet-stream' }]], '/api/ultra-fast-upload');
}

/** Polls GET /api/imports/{id} until the import is no longer processing. */
export async function finished(h: CardsHarness, browser: Browser, importId: string, timeoutMs = 30_000): Promise<ImportRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await browser.get(`/api/imports/${importId}`);
    expect(response.statusCode, response.body).toBe(200);
    const record = importRecordSchema.parse(response.json());
    if (record.status !== 'processing') return record;
    if (Date.now() > deadline) throw new Error(`import ${importId} still running: ${JSON.stringify(record)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
