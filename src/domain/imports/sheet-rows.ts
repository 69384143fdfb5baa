import { AppError } from '../../contracts/errors.ts';
import { IMPORT_MAX_ROWS } from '../../contracts/imports.ts';
import { normaliseText, textProblem } from '../../contracts/text.ts';
import type { ImportRow } from './events.ts';

// From a spreadsheet's cells (the first row its header) to the rows of an import. Pure. Header names are matched
// loosely (case, spaces, underscores: 'FrontImage', 'Front Image', 'front_image_url'); blank rows are skipped; a row
// without a valid http(s) FrontImage is a failed row with its reason, never a failed import; a row with the same
// images as an earlier one is a duplicate of it.

export const URL_MAX_LENGTH = 2_048;
export const ITEM_ID_MAX_LENGTH = 100;

type Column = 'front' | 'back' | 'itemId';

const HEADER_NAMES: Record<Column, readonly string[]> = {
  front: ['frontimage', 'frontimageurl', 'frontimagelink', 'front', 'fronturl', 'frontphoto', 'frontpicture', 'image', 'imageurl', 'imagelink', 'url'],
  back: ['backimage', 'backimageurl', 'backimagelink', 'back', 'backurl', 'backphoto', 'backpicture'],
  itemId: ['itemid', 'item', 'itemnumber', 'itemno', 'id', 'comcid', 'sku'],
};

const squeeze = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Which cell of a row holds each column, from the header row; the first match wins. */
export function matchHeader(header: readonly string[]): Partial<Record<Column, number>> {
  const found: Partial<Record<Column, number>> = {};
  header.forEach((name, index) => {
    const key = squeeze(name);
    for (const column of ['front', 'back', 'itemId'] as const) {
      if (found[column] === undefined && HEADER_NAMES[column].includes(key)) found[column] = index;
    }
  });
  return found;
}

export const noFrontImageColumn = () =>
  new AppError('unprocessable', 'import_no_front_image_column', 'The file has no FrontImage column. Download the template and put the image URLs under its FrontImage heading.');

export const tooManyRows = (max = IMPORT_MAX_ROWS) =>
  new AppError('unprocessable', 'import_too_many_rows', `The file has more than ${max.toLocaleString('en-US')} rows. Split it into files of at most ${max.toLocaleString('en-US')} rows.`);

export const noRows = () => new AppError('unprocessable', 'import_no_rows', 'The file has no rows under its header. Add one row per card, with its FrontImage URL.');

/** Why `text` is not an image URL we can fetch, or null. */
export function urlProblem(text: string, label: 'FrontImage' | 'BackImage'): string | null {
  if (text.length > URL_MAX_LENGTH) return `${label} is longer than ${URL_MAX_LENGTH} characters.`;
  if (textProblem(text, 'url')) return `${label} ${textProblem(text, 'url')}.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${label} is not a valid web address: it must be a direct http(s) image URL.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${label} must be an http(s) URL, not ${url.protocol.replace(/:$/, '')}:.`;
  return null;
}

export type SheetRow = Omit<ImportRow, 'portfolioCardId'>;

/** Rows the parser reads at most: the rows allowed, the header, and room for blank rows among them. */
export const sheetRowsToRead = (maxRows = IMPORT_MAX_ROWS) => maxRows + 1 + 1_000;

/**
 * `cells`: the sheet as rows of text cells, the header first, as the parser read them; `firstRow`: the spreadsheet
 * row of cells[0]; `moreRows`: the sheet goes on past what was read (sheetRowsToRead), so it has too many rows.
 */
export function readSheetRows(cells: readonly (readonly string[])[], options: { firstRow?: number; moreRows?: boolean; maxRows?: number } = {}): SheetRow[] {
  const maxRows = options.maxRows ?? IMPORT_MAX_ROWS;
  if (options.moreRows) throw tooManyRows(maxRows);
  const firstRow = options.firstRow ?? 1;
  const headerIndex = cells.findIndex((row) => row.some((cell) => cell.trim() !== ''));
  if (headerIndex < 0) throw noRows();
  const columns = matchHeader(cells[headerIndex]!);
  if (columns.front === undefined) throw noFrontImageColumn();

  const rows: SheetRow[] = [];
  const firstRowWith = new Map<string, number>();
  for (let index = headerIndex + 1; index < cells.length; index++) {
    const cellsOfRow = cells[index]!;
    if (cellsOfRow.every((cell) => cell.trim() === '')) continue;
    if (rows.length === maxRows) throw tooManyRows(maxRows);
    const cell = (column: Column) => {
      const at = columns[column];
      const value = at === undefined ? '' : (cellsOfRow[at] ?? '').trim();
      return value === '' ? null : value;
    };
    const row = firstRow + index;
    const front = cell('front');
    const back = cell('back');
    const rawItemId = cell('itemId');
    let problem: string | null = front === null ? 'FrontImage is missing: every row needs a direct image URL of the front of the card.' : urlProblem(front, 'FrontImage');
    if (problem === null && back !== null) problem = urlProblem(back, 'BackImage');
    let itemId: string | null = null;
    if (rawItemId !== null) {
      if (rawItemId.length > ITEM_ID_MAX_LENGTH) problem ??= `ItemID is longer than ${ITEM_ID_MAX_LENGTH} characters.`;
      else if (textProblem(rawItemId, 'line')) problem ??= `ItemID ${textProblem(rawItemId, 'line')}.`;
      else itemId = normaliseText(rawItemId, 'line') || null;
    }
    // Cut what cannot be shown back (a 10 MB cell is not kept in an event).
    const keep = (value: string | null) => (value === null ? null : value.slice(0, URL_MAX_LENGTH + 1));
    let duplicateOf: number | null = null;
    if (problem === null) {
      const key = `${front}\n${back ?? ''}`;
      duplicateOf = firstRowWith.get(key) ?? null;
      if (duplicateOf === null) firstRowWith.set(key, row);
    }
    rows.push({ row, frontImageUrl: keep(front), backImageUrl: keep(back), itemId, problem, duplicateOf });
  }
  if (rows.length === 0) throw noRows();
  return rows;
}
