import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, startCardsApp, type Browser, type CardsHarness } from '../http/cards-harness.ts';
import { finished, upload, workbook } from './imports-harness.ts';

// Hostile spreadsheets against the real upload route: each is a clear 4xx or failed rows, the server stays up and
// nothing is half-written (no import started for a refused file). Huge files are made of one compressed block
// repeated, so a 300 MB part costs the test a few kilobytes.

/** A deflate stream of `text` repeated `times` times: each copy compressed alone (sync flush), then a final empty block. */
function repeatedDeflate(text: string, times: number): { data: Buffer; size: number; crc: number } {
  const chunk = Buffer.from(text);
  const block = zlib.deflateRawSync(chunk, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  let crc = 0;
  for (let i = 0; i < times; i++) crc = zlib.crc32(chunk, crc);
  return { data: Buffer.concat([...Array.from({ length: times }, () => block), Buffer.from([0x03, 0x00])]), size: chunk.length * times, crc };
}

interface ZipEntry {
  name: string;
  /** Stored compressed: deflated bytes with their unpacked size and CRC. */
  deflated: { data: Buffer; size: number; crc: number };
}

const entry = (name: string, text: string): ZipEntry => {
  const bytes = Buffer.from(text);
  return { name, deflated: { data: zlib.deflateRawSync(bytes), size: bytes.length, crc: zlib.crc32(bytes) } };
};

function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, deflated } of entries) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(deflated.crc >>> 0, 14);
    local.writeUInt32LE(deflated.data.length, 18);
    local.writeUInt32LE(deflated.size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(deflated.crc >>> 0, 16);
    central.writeUInt32LE(deflated.data.length, 20);
    central.writeUInt32LE(deflated.size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, deflated.data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + deflated.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
const SHEET_OPEN = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_CLOSE = `</sheetData></worksheet>`;
const HEADER_ROW = `<row r="1"><c r="A1" t="inlineStr"><is><t>FrontImage</t></is></c></row>`;

/** An .xlsx whose sheet and shared strings are given as parts (each plain or repeated). */
function xlsxWith(parts: { sheet: ZipEntry; sharedStrings?: ZipEntry }): Buffer {
  return zip([
    entry('[Content_Types].xml', CONTENT_TYPES),
    entry('_rels/.rels', ROOT_RELS),
    entry('xl/workbook.xml', WORKBOOK),
    entry('xl/_rels/workbook.xml.rels', WORKBOOK_RELS),
    parts.sheet,
    parts.sharedStrings ?? entry('xl/sharedStrings.xml', '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"></sst>'),
  ]);
}

describe('hostile import files', () => {
  let h: CardsHarness;
  let browser: Browser;
  beforeAll(async () => {
    h = await startCardsApp('pglite', { IMAGE_FETCH_TIMEOUT_MS: '500', IMPORT_ROW_ATTEMPTS: '1' });
    browser = (await h.registered()).browser;
  });
  afterAll(async () => {
    await h?.close();
  });

  const importsStarted = async () => Number((await sql<{ n: string }>`select count(*) as n from es_events where event_type = 'ImportStarted'`.execute(h.database.db)).rows[0]!.n);

  async function refused(file: { bytes: Uint8Array; filename: string }, status: number, code: string, error?: string | RegExp) {
    const before = await importsStarted();
    const response = await upload(browser, file);
    await expectRefused(response, status, code, error);
    expect(await importsStarted()).toBe(before);
    expect((await browser.get('/api/imports')).statusCode).toBe(200);
  }

  it('refuses a zip bomb from its directory, before unpacking it', async () => {
    const bomb = xlsxWith({ sheet: { name: 'xl/worksheets/sheet1.xml', deflated: repeatedDeflate(' '.repeat(1 << 20), 1024) } });
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await refused({ bytes: bomb, filename: 'bomb.xlsx' }, 413, 'import_file_unpacks_too_large');
  });

  it('refuses a 300 MB shared string', async () => {
    const sharedStrings: ZipEntry = { name: 'xl/sharedStrings.xml', deflated: repeatedDeflate('A'.repeat(1 << 20), 300) };
    const sheet = entry('xl/worksheets/sheet1.xml', `${SHEET_OPEN}${HEADER_ROW}<row r="2"><c r="A2" t="s"><v>0</v></c></row>${SHEET_CLOSE}`);
    await refused({ bytes: xlsxWith({ sheet, sharedStrings }), filename: 'strings.xlsx' }, 413, 'import_file_unpacks_too_large');
  });

  it('refuses an .xlsx of 1,000,000 rows as too many rows, reading only the first', async () => {
    const row = '<row><c t="inlineStr"><is><t>http://127.0.0.1/x.jpg</t></is></c></row>';
    // Rows written without their numbers follow one another; the sheet's dimension says how far it goes.
    const rows = repeatedDeflate(row.repeat(1_000), 1_000);
    const open = zlib.deflateRawSync(Buffer.from(`${SHEET_OPEN.replace('<sheetData>', '<dimension ref="A1:A1000001"/><sheetData>')}${HEADER_ROW}`), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const close = zlib.deflateRawSync(Buffer.from(SHEET_CLOSE));
    const openText = `${SHEET_OPEN.replace('<sheetData>', '<dimension ref="A1:A1000001"/><sheetData>')}${HEADER_ROW}`;
    let crc = zlib.crc32(openText);
    const chunk = Buffer.from(row.repeat(1_000));
    for (let i = 0; i < 1_000; i++) crc = zlib.crc32(chunk, crc);
    crc = zlib.crc32(SHEET_CLOSE, crc);
    const sheet: ZipEntry = {
      name: 'xl/worksheets/sheet1.xml',
      deflated: { data: Buffer.concat([open, rows.data.subarray(0, rows.data.length - 2), close]), size: Buffer.byteLength(openText) + rows.size + SHEET_CLOSE.length, crc },
    };
    await refused({ bytes: xlsxWith({ sheet }), filename: 'million.xlsx' }, 422, 'import_too_many_rows', 'The file has more than 10,000 rows. Split it into files of at most 10,000 rows.');
  });

  it('refuses a 10 MB CSV on one line, a file over 10 MB, a PNG named .xlsx, another extension and no file', async () => {
    await refused({ bytes: Buffer.from(`FrontImage,${'a,'.repeat(4_900_000)}`), filename: 'line.csv' }, 422, 'import_csv_line_too_long');
    await refused({ bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 'a'), filename: 'big.csv' }, 413, 'import_file_too_large');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer();
    await refused({ bytes: png, filename: 'cards.xlsx' }, 415, 'import_invalid_file_type', 'Please upload an Excel file (.xlsx, .xls) or CSV file (this file is a PNG image)');
    await refused({ bytes: Buffer.from('FrontImage\nhttp://x/a.jpg\n'), filename: 'cards.txt' }, 415, 'import_invalid_file_type', 'Please upload an Excel file (.xlsx, .xls) or CSV file');
    await refused({ bytes: new Uint8Array(0), filename: '' }, 400, 'import_no_file', 'Please select a file to upload.');
    await refused({ bytes: Buffer.from('Name,Price\nPikachu,3\n'), filename: 'cards.csv' }, 422, 'import_no_front_image_column');
    await refused({ bytes: zip([entry('a.txt', 'hello')]), filename: 'notabook.xlsx' }, 422, 'import_file_unreadable');
  });

  it('never evaluates formulas: HYPERLINK and formula cells are their stored text, URLs to private addresses fail as rows', async () => {
    const book = XLSX.utils.book_new();
    const sheet = XLSX.utils.aoa_to_sheet([['FrontImage'], ['placeholder'], ['placeholder'], ['placeholder']]);
    sheet.A2 = { t: 's', v: 'Click me', f: 'HYPERLINK("http://10.0.0.1/a.jpg","Click me")' };
    sheet.A3 = { t: 's', v: 'http://169.254.169.254/latest/meta-data', f: 'CONCATENATE("http://169.254.169.254","/latest/meta-data")' };
    sheet.A4 = { t: 's', v: 'http://192.168.1.10/card.jpg' };
    XLSX.utils.book_append_sheet(book, sheet, 'Cards');
    const csv = Buffer.from('FrontImage\n"=HYPERLINK(""http://10.0.0.1/a.jpg"")"\n=1+1\n@SUM(A1)\n');
    for (const file of [{ bytes: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer, filename: 'formulas.xlsx' }, { bytes: csv, filename: 'formulas.csv' }]) {
      const response = await upload(browser, file);
      expect(response.statusCode, response.body).toBe(200);
      const record = await finished(h, browser, response.json().importId);
      expect(record).toMatchObject({ status: 'failed', totalCards: 3, failedCards: 3, successfulCards: 0 });
      const reasons = await h.database.db.selectFrom('import_cards').select('error_message').where('import_id', '=', record.id).orderBy('row_number').execute();
      for (const { error_message } of reasons) expect(error_message).toMatch(/not a valid web address|private network|link-local/);
    }
  });

  it('leaves Object.prototype alone with a prototype-pollution workbook, and reads its rows as text', async () => {
    const file = workbook([['http://10.0.0.9/a.jpg', '{"polluted":1}', '1'], ['http://10.0.0.9/b.jpg', '', '']], ['FrontImage', '__proto__', 'constructor']);
    const response = await upload(browser, { bytes: file, filename: 'proto.xlsx' });
    expect(response.statusCode, response.body).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    const record = await finished(h, browser, response.json().importId);
    expect(record).toMatchObject({ totalCards: 2, failedCards: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
