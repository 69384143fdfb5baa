// CSV as the app writes it (collection, portfolio, an import's failed rows), shared by the server and the web app.

/**
 * One cell: a text a spreadsheet would run as a formula (it starts with =, +, - or @, or a tab or carriage return
 * that some spreadsheets skip) gets a leading apostrophe; then RFC 4180 quoting.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Lines of cells, CRLF-separated as RFC 4180 writes them. */
export const csvText = (lines: readonly (readonly string[])[]) => `${lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`;
