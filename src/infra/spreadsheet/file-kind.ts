import { AppError } from '../../contracts/errors.ts';
import { importMessages } from '../../contracts/imports.ts';
import { sniffImageType } from '../image-storage/image-type.ts';

// What an uploaded spreadsheet really is, from its first bytes, not its name: an .xlsx is a zip, an .xls an OLE
// compound file, a .csv text. A PNG named .xlsx is refused for what it is.

export type SpreadsheetKind = 'xlsx' | 'xls' | 'csv';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

export const invalidFileType = (detail?: string) =>
  new AppError('unsupported', 'import_invalid_file_type', `${importMessages.invalidFileType.description}${detail ? ` (${detail})` : ''}`);

export function spreadsheetKind(bytes: Uint8Array): SpreadsheetKind {
  if (startsWith(bytes, ZIP)) return 'xlsx';
  if (startsWith(bytes, OLE)) return 'xls';
  const image = sniffImageType(bytes);
  if (image) throw invalidFileType(`this file is a ${image.replace('image/', '').toUpperCase()} image`);
  // Text: no NUL byte in the first 64 KB (UTF-16 text is not taken either).
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) throw invalidFileType('this file is neither a spreadsheet nor text');
  return 'csv';
}
