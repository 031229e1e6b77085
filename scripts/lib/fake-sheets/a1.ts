/** A1 notation, the subset the Sheets API accepts in `range`: `Tab`, `'My Tab'!A1:C9`, `Tab!1:1`, `Tab!A:A`, `Tab!A5:V`. */

export type A1Range = {
  sheet: string;
  /** 1-based; undefined means open on that side. */
  startRow: number | undefined;
  startColumn: number | undefined;
  endRow: number | undefined;
  endColumn: number | undefined;
};

export class A1Error extends Error {
  override name = "A1Error";
}

export function columnLetter(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

export function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((total, letter) => total * 26 + (letter.charCodeAt(0) - 64), 0);
}

export function quoteSheet(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

function splitSheet(range: string): { sheet: string; cells: string | undefined } {
  if (range.startsWith("'")) {
    let i = 1;
    let sheet = "";
    while (i < range.length) {
      if (range[i] === "'" && range[i + 1] === "'") {
        sheet += "'";
        i += 2;
      } else if (range[i] === "'") {
        break;
      } else {
        sheet += range[i];
        i += 1;
      }
    }
    const rest = range.slice(i + 1);
    if (rest !== "" && !rest.startsWith("!")) throw new A1Error(`Unable to parse range: ${range}`);
    return { sheet, cells: rest === "" ? undefined : rest.slice(1) };
  }
  const bang = range.lastIndexOf("!");
  return bang === -1 ? { sheet: range, cells: undefined } : { sheet: range.slice(0, bang), cells: range.slice(bang + 1) };
}

function parseCell(cell: string, range: string): { row: number | undefined; column: number | undefined } {
  const match = /^([A-Za-z]*)(\d*)$/.exec(cell);
  if (!match || cell === "") throw new A1Error(`Unable to parse range: ${range}`);
  return {
    column: match[1] ? columnNumber(match[1]) : undefined,
    row: match[2] ? Number(match[2]) : undefined,
  };
}

export function parseA1(range: string): A1Range {
  const { sheet, cells } = splitSheet(range);
  if (sheet === "") throw new A1Error(`Unable to parse range: ${range}`);
  if (cells === undefined) return { sheet, startRow: undefined, startColumn: undefined, endRow: undefined, endColumn: undefined };
  const [from, to, extra] = cells.split(":");
  if (from === undefined || extra !== undefined) throw new A1Error(`Unable to parse range: ${range}`);
  const start = parseCell(from, range);
  const end = to === undefined ? start : parseCell(to, range);
  return { sheet, startRow: start.row, startColumn: start.column, endRow: end.row, endColumn: end.column };
}

export function formatA1(sheet: string, startRow: number, startColumn: number, endRow: number, endColumn: number): string {
  return `${quoteSheet(sheet)}!${columnLetter(startColumn)}${startRow}:${columnLetter(endColumn)}${endRow}`;
}
