/**
 * CSV files members download and open in a spreadsheet (RFC 4180: quoted where needed,
 * CRLF between rows). A cell starting with = + - @ (or a tab or carriage return) would be
 * run as a formula by Excel or Google Sheets, so it gets a leading apostrophe and is shown
 * as the text it is.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The file's text: a byte-order mark so Excel reads accented names as UTF-8, then one line per row. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
