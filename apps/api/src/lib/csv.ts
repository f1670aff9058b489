/** A cell as RFC 4180 text; a leading = + - @ is neutralised, since guests write the messages (formula injection). */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document: the header and the rows, CRLF line ends. */
export function csvOf(columns: readonly string[], rows: (string | number | null)[][]): string {
  return `${[columns.join(','), ...rows.map((row) => row.map(csvCell).join(','))].join('\r\n')}\r\n`;
}
