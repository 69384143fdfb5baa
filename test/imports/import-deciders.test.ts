import { describe, expect, it } from 'vitest';
import { importDecider, importEventSchemas, importRowDecider, plainRowReason, readSheetRows, type ImportRowFailed, type ImportRowGraded, type ImportStarted } from '../../src/domain/imports/index.ts';
import { specify } from '../accounts/decider-spec.ts';

const importId = '6b1f0c2e-3d4a-4b5c-8d6e-7f8091a2b3c4';
const owner = 'user:0b7e3c1a-1111-4222-8333-444455556666' as const;
const stranger = 'user:9b7e3c1a-1111-4222-8333-444455556666' as const;
const at = '2026-11-25T12:00:00.000Z';

const started: ImportStarted = {
  type: 'ImportStarted',
  data: {
    importId,
    owner,
    fileName: 'cards.xlsx',
    fileSize: 1234,
    rows: [{ row: 2, frontImageUrl: 'https://example.com/a.jpg', backImageUrl: null, itemId: 'X1', problem: null, duplicateOf: null, portfolioCardId: 7 }],
    startedAt: at,
  },
};

describe('an import', () => {
  const given = specify(importDecider);

  it('starts once with its rows; the same start again changes nothing', () => {
    given([]).when({ type: 'StartImport', data: started.data }).then([started]);
    given([started]).when({ type: 'StartImport', data: started.data }).then([]);
    expect(importEventSchemas.ImportStarted.parse(started.data)).toEqual(started.data);
  });

  it('is started by a signed-in user only', () => {
    given([]).when({ type: 'StartImport', data: { ...started.data, owner: 'guest:0b7e3c1a-1111-4222-8333-444455556666' } }).thenRefuses('unauthorized');
  });

  it('completes once, whoever sees the last outcome first', () => {
    given([started]).when({ type: 'CompleteImport', data: { importId, at } }).then([{ type: 'ImportCompleted', data: { importId, completedAt: at } }]);
    given([started, { type: 'ImportCompleted', data: { importId, completedAt: at } }]).when({ type: 'CompleteImport', data: { importId, at } }).then([]);
  });

  it('is cancelled, retried and deleted by its owner only; to anyone else it does not exist', () => {
    given([started]).when({ type: 'CancelImport', data: { importId, requestedBy: owner, at } }).then([{ type: 'ImportCancelled', data: { importId, cancelledAt: at } }]);
    given([started]).when({ type: 'CancelImport', data: { importId, requestedBy: stranger, at } }).thenRefuses('import_not_found');
    given([started]).when({ type: 'DeleteImport', data: { importId, requestedBy: stranger, at } }).thenRefuses('import_not_found');
    given([]).when({ type: 'DeleteImport', data: { importId, requestedBy: owner, at } }).thenRefuses('import_not_found');
    const deleted = { type: 'ImportDeleted' as const, data: { importId, owner, deletedAt: at } };
    given([started]).when({ type: 'DeleteImport', data: { importId, requestedBy: owner, at } }).then([deleted]);
    given([started, deleted]).when({ type: 'DeleteImport', data: { importId, requestedBy: owner, at } }).then([]);
    given([started, deleted]).when({ type: 'CancelImport', data: { importId, requestedBy: owner, at } }).thenRefuses('import_not_found');
  });

  it('retries its failed rows once finished, as the next generation', () => {
    const completed = { type: 'ImportCompleted' as const, data: { importId, completedAt: at } };
    given([started]).when({ type: 'RetryFailedRows', data: { importId, requestedBy: owner, failedRows: [2], at } }).thenRefuses('import_running');
    given([started, completed]).when({ type: 'RetryFailedRows', data: { importId, requestedBy: owner, failedRows: [], at } }).thenRefuses('import_no_failed_rows');
    given([started, completed])
      .when({ type: 'RetryFailedRows', data: { importId, requestedBy: owner, failedRows: [2], at } })
      .then([{ type: 'ImportFailedRowsRetried', data: { importId, rows: [2], generation: 1, retriedAt: at } }]);
  });
});

describe("a row's outcome", () => {
  const given = specify(importRowDecider);
  const base = { importId, owner, row: 2, generation: 0, processingMs: 5, at };
  const graded: ImportRowGraded = { type: 'ImportRowGraded', data: { ...base, cardId: 'c'.repeat(22), portfolioCardId: 7, cardName: 'Pikachu' } };
  const failed: ImportRowFailed = { type: 'ImportRowFailed', data: { ...base, code: 'image_download_http_error', reason: 'HTTP 404' } };

  it('is recorded once: the row worked on again records nothing', () => {
    given([]).when({ type: 'RecordRowOutcome', data: graded }).then([graded]);
    given([graded]).when({ type: 'RecordRowOutcome', data: graded }).then([]);
    given([failed]).when({ type: 'RecordRowOutcome', data: graded }).then([]);
  });

  it('after a failure, takes the outcome of a retry (a later generation)', () => {
    const retried = { ...graded, data: { ...graded.data, generation: 1 } };
    given([failed]).when({ type: 'RecordRowOutcome', data: retried }).then([retried]);
    given([failed, retried]).when({ type: 'RecordRowOutcome', data: retried }).then([]);
  });
});

describe('reading rows from a sheet', () => {
  it('matches headers loosely, skips blank rows, fails rows without a valid URL and finds repeats', () => {
    const rows = readSheetRows([
      ['', '', ''],
      ['front_image_url', 'Back Image', 'item id'],
      ['https://a.test/1.jpg', '', 'A-1'],
      ['', '', ''],
      ['ftp://a.test/2.jpg', '', ''],
      ['', 'https://a.test/back.jpg', ''],
      ['https://a.test/1.jpg', '', 'A-2'],
      ['https://a.test/3.jpg', 'javascript:alert(1)', ''],
    ]);
    expect(rows.map((r) => [r.row, r.problem === null, r.duplicateOf, r.itemId])).toEqual([
      [3, true, null, 'A-1'],
      [5, false, null, null],
      [6, false, null, null],
      [7, true, 3, 'A-2'],
      [8, false, null, null],
    ]);
    expect(rows[1]!.problem).toBe('FrontImage must be an http(s) URL, not ftp:.');
    expect(rows[2]!.problem).toMatch(/^FrontImage is missing/);
  });

  it('refuses a sheet without a FrontImage column, without rows, or with too many rows', () => {
    expect(() => readSheetRows([['Name'], ['x']])).toThrow(expect.objectContaining({ code: 'import_no_front_image_column' }));
    expect(() => readSheetRows([['FrontImage'], ['', '']])).toThrow(expect.objectContaining({ code: 'import_no_rows' }));
    expect(() => readSheetRows([['FrontImage'], ['https://a.test/1.jpg'], ['https://a.test/2.jpg']], { maxRows: 1 })).toThrow(expect.objectContaining({ code: 'import_too_many_rows' }));
  });
});

describe("a failed row's URLs", () => {
  const given = specify(importDecider);
  const completed = { type: 'ImportCompleted' as const, data: { importId, completedAt: at } };
  const edit = (changes: Partial<{ requestedBy: `user:${string}`; row: number; rowStatus: 'pending' | 'graded' | 'duplicate' | 'failed' | null; frontImageUrl: string; backImageUrl: string | null }> = {}) => ({
    type: 'EditFailedRow' as const,
    data: { importId, requestedBy: owner, row: 2, rowStatus: 'failed' as const, frontImageUrl: 'https://example.com/b.jpg', backImageUrl: null, at, ...changes },
  });

  it('are fixed by the owner once the import has finished', () => {
    const edited = { type: 'ImportRowEdited' as const, data: { importId, row: 2, frontImageUrl: 'https://example.com/b.jpg', backImageUrl: null, editedAt: at } };
    given([started, completed]).when(edit()).then([edited]);
    expect(importEventSchemas.ImportRowEdited.parse(edited.data)).toEqual(edited.data);
    // An edit changes nothing of the import's own state: it can be retried as before.
    given([started, completed, edited]).when({ type: 'RetryFailedRows', data: { importId, requestedBy: owner, failedRows: [2], at } }).then([
      { type: 'ImportFailedRowsRetried', data: { importId, rows: [2], generation: 1, retriedAt: at } },
    ]);
  });

  it('are refused while it runs, for a row that did not fail or does not exist, to anyone else, and when they could not be fetched', () => {
    given([started]).when(edit()).thenRefuses('import_running');
    given([started, completed]).when(edit({ rowStatus: 'graded' })).thenRefuses('import_row_not_failed');
    given([started, completed]).when(edit({ rowStatus: null })).thenRefuses('import_row_not_found');
    given([started, completed]).when(edit({ requestedBy: stranger })).thenRefuses('import_not_found');
    given([started, completed]).when(edit({ frontImageUrl: 'file:///etc/passwd' })).thenRefuses('import_row_invalid_url');
    given([started, completed]).when(edit({ backImageUrl: 'back.jpg' })).thenRefuses('import_row_invalid_url');
  });
});

describe("a row's reason", () => {
  it('is told in plain words, never as a system code', () => {
    expect(plainRowReason(null)).toBeNull();
    expect(plainRowReason('Front image: The image could not be downloaded: the server answered with HTTP 404.')).toBe('Front image: The image could not be downloaded: the server answered with HTTP 404.');
    expect(plainRowReason('Back image: getaddrinfo ENOTFOUND cards.example')).toBe('Back image: The image could not be downloaded: the image host could not be found.');
    expect(plainRowReason('connect ECONNREFUSED 127.0.0.1:9')).toBe('The image could not be downloaded: the image server refused the connection.');
    expect(plainRowReason('ETIMEDOUT')).toBe('The image could not be downloaded: the image server did not answer in time.');
    expect(plainRowReason('import_row_error')).toMatch(/^The card could not be processed\./);
  });
});
