/** A name as SQL writes an identifier: in double quotes, any double quote in it doubled. */
export function quotedIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
