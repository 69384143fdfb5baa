import { AppError } from '../../contracts/errors.ts';

// An .xlsx is a zip: before anything unpacks it, its central directory says how large every part would be. A zip
// bomb (a few KB that unpack to gigabytes) or a 300 MB shared-strings part is refused from those figures; what lies
// about its sizes meets the parser's memory limit instead.

export const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;
export const MAX_ENTRIES = 2_000;

export const tooLargeUnpacked = () =>
  new AppError('too_large', 'import_file_unpacks_too_large', 'The spreadsheet is too large once unpacked (over 100 MB). Save it again with only the FrontImage, BackImage and ItemID columns, or split it.');

const damaged = () => new AppError('unprocessable', 'import_file_damaged', 'The spreadsheet could not be read: the file is damaged or not a real .xlsx file.');

export function checkZipSizes(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: in the last 64 KB + 22 bytes.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw damaged();
  const entries = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (entries === 0xffff || offset === 0xffffffff) throw tooLargeUnpacked(); // zip64: nothing a template needs
  if (entries > MAX_ENTRIES) throw damaged();
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) throw damaged();
    const unpacked = view.getUint32(offset + 24, true);
    if (unpacked === 0xffffffff) throw tooLargeUnpacked();
    total += unpacked;
    if (total > MAX_UNPACKED_BYTES) throw tooLargeUnpacked();
    offset += 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
}
