/** Saves a blob as a file through a temporary link, the way a browser downloads. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken its copy once the click is handled; a second spares a slow one.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** A CSV text as a file. */
export function saveCsv(text: string, fileName: string): void {
  saveFile(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
}
