/**
 * CSV for spreadsheets (RFC 4180, CRLF lines). A formula start (= + - @, a
 * tab or a carriage return) gets an apostrophe in front wherever a
 * spreadsheet might see a cell begin: at the start, and after a separator
 * some spreadsheets split on (`;`, `,`, `|`, a tab) or a quote — so a name
 * like `=HYPERLINK(...)` or `x;=1+1` stays text. Cells holding a separator,
 * quote or line break are quoted.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  text = text.replace(/(^|[;,|\t"'])([=+\-@\t\r])/g, "$1'$2");
  return /[",;|\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A file name safe inside Content-Disposition: letters, digits, dots, dashes and underscores only. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 120) || "export";
}

export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
