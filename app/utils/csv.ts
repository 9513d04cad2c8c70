/**
 * CSV for spreadsheets (RFC 4180, CRLF lines). A cell that a spreadsheet
 * would run as a formula (starting with = + - @, or a tab or carriage
 * return) gets a leading apostrophe, so an exported name like
 * `=HYPERLINK(...)` stays text.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
