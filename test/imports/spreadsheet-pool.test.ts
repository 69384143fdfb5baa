import { describe, expect, it } from 'vitest';
import { parseSpreadsheet, parserThreadsRunning, PARSER_THREADS } from '../../src/infra/spreadsheet/index.ts';

// Issue 34: every upload got a parser thread of its own (ten at once: ten threads, 650 MB). Now a bounded pool:
// ten files at once, real threads, never more than PARSER_THREADS running, every file read.

describe('spreadsheet parsing in a bounded pool', () => {
  it(`ten files at once run at most ${PARSER_THREADS} parser threads, and each is read`, async () => {
    const files = Array.from({ length: 10 }, (_, file) => Buffer.from(['FrontImage,ItemID', ...Array.from({ length: 2_000 }, (_, row) => `https://example.com/${file}/${row}.jpg,F${file}R${row}`)].join('\n')));
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, parserThreadsRunning())), 1);
    const sheets = await Promise.all(files.map((bytes) => parseSpreadsheet(bytes, { maxRows: 10_000 })));
    clearInterval(sampler);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(PARSER_THREADS);
    expect(sheets.map((s) => [s.cells.length, s.cells[1]![1]])).toEqual(files.map((_, file) => [2_001, `F${file}R0`]));
    expect(parserThreadsRunning()).toBe(0);
  }, 60_000);
});
