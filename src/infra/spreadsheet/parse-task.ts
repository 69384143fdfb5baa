import { parentPort, workerData } from 'node:worker_threads';
import * as XLSX from '@e965/xlsx';

// Runs in a throwaway worker thread with memory limits (./parse-spreadsheet.ts): SheetJS reads the untrusted file
// and only text cells come back, the first MAX_COLUMNS columns of the first sheet, each cut to MAX_CELL characters.
// Formulas are never evaluated: a cell is the value the file stored for it (HYPERLINK's text, not a link).

export interface ParseInput {
  bytes: Uint8Array;
  kind: 'xlsx' | 'xls' | 'csv';
  /** Rows to read at most, the header included; the sheet going on is reported, not read. */
  maxRows: number;
}

export type ParseOutput =
  | { ok: true; cells: string[][]; firstRow: number; moreRows: boolean }
  | { ok: false; code: 'unreadable' | 'no_sheet'; message: string };

export const MAX_COLUMNS = 30;
export const MAX_CELL = 4_096;

function parse({ bytes, kind, maxRows }: ParseInput): ParseOutput {
  let workbook: XLSX.WorkBook;
  try {
    const options: XLSX.ParsingOptions = { dense: true, sheetRows: maxRows, cellFormula: false, cellHTML: false, cellStyles: false, bookVBA: false, WTF: false };
    workbook =
      kind === 'csv'
        ? XLSX.read(new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''), { ...options, type: 'string', raw: true })
        : XLSX.read(bytes, { ...options, type: 'array' });
  } catch (error) {
    return { ok: false, code: 'unreadable', message: error instanceof Error ? error.message.slice(0, 200) : 'unreadable' };
  }
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet || !sheet['!ref']) return { ok: false, code: 'no_sheet', message: 'no sheet' };
  const range = XLSX.utils.decode_range(sheet['!ref']);
  const full = sheet['!fullref'] ? XLSX.utils.decode_range(sheet['!fullref']) : range;
  range.e.c = Math.min(range.e.c, range.s.c + MAX_COLUMNS - 1);
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true, range });
  const cells = rows.map((row) => (Array.isArray(row) ? row.map((cell) => String(cell ?? '').slice(0, MAX_CELL)) : []));
  return { ok: true, cells, firstRow: range.s.r + 1, moreRows: full.e.r > range.e.r };
}

parentPort?.postMessage(parse(workerData as ParseInput));
