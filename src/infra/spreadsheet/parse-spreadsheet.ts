import { Worker } from 'node:worker_threads';
import { AppError } from '../../contracts/errors.ts';
import { createLimiter } from '../concurrency/limiter.ts';
import { invalidFileType, spreadsheetKind, type SpreadsheetKind } from './file-kind.ts';
import type { ParseInput, ParseOutput } from './parse-task.ts';
import { checkZipSizes } from './zip-check.ts';

// Spreadsheets are untrusted input (DESIGN.md §5): the kind is taken from the bytes, an .xlsx's unpacked size is
// checked from its directory, a CSV line may not be absurdly long, and SheetJS (@e965/xlsx, 0.20.2 or later) reads
// the file in a worker thread of its own, with a heap limit and a time limit, thrown away after the file.
// At most PARSER_THREADS such threads at once per process (issue 34: ten uploads at once were ten threads, 650 MB
// for 15 s); more files wait their turn, and each one's time limit starts when its thread does.

export const PARSER_THREADS = 2;
const parserThreads = createLimiter(PARSER_THREADS);
let runningParsers = 0;
/** Parser threads running now (tests read it). */
export const parserThreadsRunning = () => runningParsers;

export interface ParsedSheet {
  kind: SpreadsheetKind;
  /** Rows of text cells, the header first. */
  cells: string[][];
  /** The spreadsheet row number of cells[0]. */
  firstRow: number;
  /** The sheet has rows past those read. */
  moreRows: boolean;
}

export interface ParseLimits {
  maxRows: number;
  timeoutMs?: number;
  maxHeapMb?: number;
}

const TASK = new URL('./parse-task.ts', import.meta.url);
export const CSV_MAX_LINE = 64 * 1024;

const unreadable = (kind: SpreadsheetKind) =>
  new AppError('unprocessable', 'import_file_unreadable', kind === 'csv' ? 'The CSV file could not be read.' : 'The spreadsheet could not be read: the file is damaged or not a real Excel file.');
const tooComplex = () =>
  new AppError('unprocessable', 'import_file_too_complex', 'The spreadsheet is too large or too complex to read. Keep only the FrontImage, BackImage and ItemID columns, or split it into smaller files.');

function checkCsvLines(bytes: Uint8Array): void {
  let lineStart = 0;
  for (let at = bytes.indexOf(0x0a); ; at = bytes.indexOf(0x0a, lineStart)) {
    const end = at < 0 ? bytes.length : at;
    if (end - lineStart > CSV_MAX_LINE) {
      throw new AppError('unprocessable', 'import_csv_line_too_long', `A line of the CSV file is longer than ${CSV_MAX_LINE / 1024} KB: put one card per line.`);
    }
    if (at < 0) return;
    lineStart = at + 1;
  }
}

export async function parseSpreadsheet(bytes: Uint8Array, limits: ParseLimits): Promise<ParsedSheet> {
  if (bytes.length === 0) throw invalidFileType('the file is empty');
  const kind = spreadsheetKind(bytes);
  if (kind === 'xlsx') checkZipSizes(bytes);
  if (kind === 'csv') checkCsvLines(bytes);

  const input: ParseInput = { bytes, kind, maxRows: limits.maxRows };
  const output = await parserThreads(async () => {
    runningParsers++;
    try {
      return await parseInThread(input, limits);
    } finally {
      runningParsers--;
    }
  });
  if (!output.ok) throw unreadable(kind);
  return { kind, cells: output.cells, firstRow: output.firstRow, moreRows: output.moreRows };
}

/** One file in a thread of its own, thrown away after it. */
async function parseInThread(input: ParseInput, limits: ParseLimits): Promise<ParseOutput> {
  const { kind } = input;
  const worker = new Worker(TASK, {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb ?? 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  return new Promise<ParseOutput>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(tooComplex());
    }, limits.timeoutMs ?? 15_000);
    worker.once('message', (message: ParseOutput) => {
      clearTimeout(timer);
      resolve(message);
    });
    worker.once('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooComplex() : unreadable(kind));
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(code === 0 ? unreadable(kind) : tooComplex());
    });
  }).finally(() => void worker.terminate());
}
