import * as XLSX from '@e965/xlsx';
import { TEMPLATE_COLUMNS } from '../../contracts/imports.ts';

// GET /api/download-template: a real .xlsx with the import's columns, an example row, and a second sheet saying
// what goes in each column. Built once per process from our own constants (no user data in it).

let built: Buffer | undefined;

export function importTemplate(): Buffer {
  if (built) return built;
  const book = XLSX.utils.book_new();
  const cards = XLSX.utils.aoa_to_sheet([
    [...TEMPLATE_COLUMNS],
    ['https://example.com/cards/charizard-front.jpg', 'https://example.com/cards/charizard-back.jpg', 'COMC-123456'],
  ]);
  cards['!cols'] = [{ wch: 50 }, { wch: 50 }, { wch: 16 }];
  XLSX.utils.book_append_sheet(book, cards, 'Cards');
  const help = XLSX.utils.aoa_to_sheet([
    ['Column', 'Required', 'What to put in it'],
    ['FrontImage', 'Yes', 'A direct link (http:// or https://) to a photo of the front of the card: JPG, PNG, WEBP, HEIC, GIF or AVIF.'],
    ['BackImage', 'No', 'A direct link to a photo of the back of the card, if you have one.'],
    ['ItemID', 'No', 'Your own or the marketplace\'s id for the card (for example its COMC item id); kept with the card.'],
    [],
    ['One card per row, up to 10,000 rows and 10 MB per file. Blank rows are skipped; a row whose images you already have is counted as a duplicate.'],
  ]);
  help['!cols'] = [{ wch: 14 }, { wch: 10 }, { wch: 100 }];
  XLSX.utils.book_append_sheet(book, help, 'Instructions');
  built = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
  return built;
}
