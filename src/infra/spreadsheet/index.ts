// Reading untrusted spreadsheets (DESIGN.md §5) and writing the import template.
export { invalidFileType, spreadsheetKind, type SpreadsheetKind } from './file-kind.ts';
export { parseSpreadsheet, parserThreadsRunning, PARSER_THREADS, CSV_MAX_LINE, type ParsedSheet, type ParseLimits } from './parse-spreadsheet.ts';
export { importTemplate } from './template.ts';
export { checkZipSizes, MAX_UNPACKED_BYTES } from './zip-check.ts';
