import { A1Error, columnNumber, formatA1, parseA1, quoteSheet } from "./a1";

/** A 400 answer of the Sheets API: a bad range, a missing tab, a write past the grid. */
export class SheetsRequestError extends Error {
  override name = "SheetsRequestError";
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export type CellInput = string | number | boolean | null;
export type ValueInputOption = "RAW" | "USER_ENTERED";

export type Sheet = {
  sheetId: number;
  title: string;
  /** Row 1 is rows[0]; rows may be shorter than the grid (missing cells are blank). */
  rows: string[][];
  rowCount: number;
  columnCount: number;
};

/**
 * What USER_ENTERED would make of typed text, enough to tell it from RAW: formulas are
 * evaluated (here to an error, the fake evaluates nothing), numbers lose their leading
 * zeros and spaces, a leading apostrophe is dropped.
 */
function userEntered(value: string): string {
  if (value.startsWith("'")) return value.slice(1);
  if (value.startsWith("=")) return "#NAME?";
  const compact = value.replace(/\s+/g, "");
  if (/^[+-]?\d+(\.\d+)?$/.test(compact)) return String(Number(compact));
  return value;
}

function cellFrom(input: CellInput, option: ValueInputOption): string {
  const text = input === null ? "" : String(input);
  return option === "RAW" ? text : userEntered(text);
}

const isBlank = (row: readonly string[] | undefined) => !row || row.every((cell) => cell === "");

/** One spreadsheet held in memory, with the operations staff perform by hand. */
export class FakeSpreadsheet {
  readonly sheets: Sheet[] = [];
  private nextSheetId = 1;

  constructor(
    readonly spreadsheetId: string,
    readonly title = "Fake workbook",
  ) {}

  sheet(title: string): Sheet | undefined {
    const key = title.toLowerCase();
    return this.sheets.find((sheet) => sheet.title.toLowerCase() === key);
  }

  requireSheet(title: string): Sheet {
    const sheet = this.sheet(title);
    if (!sheet) throw new SheetsRequestError(`Unable to parse range: ${quoteSheet(title)}`);
    return sheet;
  }

  addSheet(title: string, grid: { rowCount?: number; columnCount?: number } = {}): Sheet {
    if (this.sheet(title)) throw new SheetsRequestError(`A sheet with the name "${title}" already exists. Please enter another name.`);
    const sheet = { sheetId: this.nextSheetId++, title, rows: [], rowCount: grid.rowCount ?? 1000, columnCount: grid.columnCount ?? 26 };
    this.sheets.push(sheet);
    return sheet;
  }

  appendColumns(sheetId: number, length: number): void {
    const sheet = this.sheets.find((candidate) => candidate.sheetId === sheetId);
    if (!sheet) throw new SheetsRequestError(`No grid with id: ${sheetId}`);
    sheet.columnCount += length;
  }

  private lastDataRow(sheet: Sheet): number {
    let last = sheet.rows.length;
    while (last > 0 && isBlank(sheet.rows[last - 1])) last -= 1;
    return last;
  }

  private checkColumns(sheet: Sheet, column: number | undefined, range: string): void {
    if (column !== undefined && column > sheet.columnCount) {
      throw new SheetsRequestError(`Range (${range}) exceeds grid limits. Max rows: ${sheet.rowCount}, max columns: ${sheet.columnCount}`);
    }
  }

  private parse(range: string) {
    try {
      return parseA1(range);
    } catch (error) {
      if (error instanceof A1Error) throw new SheetsRequestError(error.message);
      throw error;
    }
  }

  /** values.get: trailing blank rows and trailing blank cells are left out, as the API does. */
  read(range: string): { range: string; majorDimension: "ROWS"; values?: string[][] } {
    const a1 = this.parse(range);
    const sheet = this.requireSheet(a1.sheet);
    this.checkColumns(sheet, a1.endColumn ?? a1.startColumn, range);
    const startRow = a1.startRow ?? 1;
    const startColumn = a1.startColumn ?? 1;
    const endRow = Math.min(a1.endRow ?? sheet.rowCount, this.lastDataRow(sheet));
    const endColumn = a1.endColumn ?? sheet.columnCount;
    const values: string[][] = [];
    for (let row = startRow; row <= endRow; row += 1) {
      const cells = (sheet.rows[row - 1] ?? []).slice(startColumn - 1, endColumn);
      while (cells.length > 0 && cells.at(-1) === "") cells.pop();
      values.push(cells);
    }
    while (values.length > 0 && values.at(-1)?.length === 0) values.pop();
    const answered = formatA1(sheet.title, startRow, startColumn, Math.max(a1.endRow ?? sheet.rowCount, startRow), endColumn);
    return values.length > 0 ? { range: answered, majorDimension: "ROWS", values } : { range: answered, majorDimension: "ROWS" };
  }

  private writeAt(sheet: Sheet, row: number, column: number, values: readonly (readonly CellInput[])[], option: ValueInputOption, range: string) {
    const widest = Math.max(0, ...values.map((cells) => cells.length));
    this.checkColumns(sheet, column + widest - 1, range);
    values.forEach((cells, i) => {
      const target = (sheet.rows[row - 1 + i] ??= []);
      cells.forEach((input, j) => {
        if (input === null) return;
        while (target.length < column + j) target.push("");
        target[column - 1 + j] = cellFrom(input, option);
      });
    });
    for (let i = 0; i < sheet.rows.length; i += 1) sheet.rows[i] ??= [];
    sheet.rowCount = Math.max(sheet.rowCount, row - 1 + values.length);
    return {
      updatedRange: formatA1(sheet.title, row, column, row + Math.max(values.length, 1) - 1, column + Math.max(widest, 1) - 1),
      updatedRows: values.length,
      updatedColumns: widest,
      updatedCells: values.reduce((total, cells) => total + cells.length, 0),
    };
  }

  /** values.update: writes from the range's top-left cell; null cells are left as they are. */
  write(range: string, values: readonly (readonly CellInput[])[], option: ValueInputOption) {
    const a1 = this.parse(range);
    const sheet = this.requireSheet(a1.sheet);
    return this.writeAt(sheet, a1.startRow ?? 1, a1.startColumn ?? 1, values, option, range);
  }

  /** values.append: after the last row holding data, new rows inserted. */
  append(range: string, values: readonly (readonly CellInput[])[], option: ValueInputOption) {
    const a1 = this.parse(range);
    const sheet = this.requireSheet(a1.sheet);
    const at = this.lastDataRow(sheet) + 1;
    sheet.rows.splice(at - 1, 0, ...values.map(() => [] as string[]));
    sheet.rowCount += values.length;
    const tableRange = formatA1(sheet.title, 1, 1, Math.max(at - 1, 1), Math.max(1, ...sheet.rows.map((row) => row.length)));
    return { tableRange, updates: this.writeAt(sheet, at, a1.startColumn ?? 1, values, option, range) };
  }

  // --- what staff do by hand ---------------------------------------------

  /** A copy of the tab's cells, row 1 first. */
  rows(title: string): string[][] {
    return this.requireSheet(title).rows.map((row) => [...row]);
  }

  headers(title: string): string[] {
    return [...(this.requireSheet(title).rows[0] ?? [])];
  }

  /** The sheet row number (1 = header) of the row whose `id` cell is `id`. */
  rowNumberOf(title: string, id: string): number {
    const sheet = this.requireSheet(title);
    const idColumn = this.columnOf(title, "id");
    const index = sheet.rows.findIndex((row, i) => i > 0 && (row[idColumn - 1] ?? "").trim() === id);
    if (index === -1) throw new Error(`No row with id ${id} in ${title}`);
    return index + 1;
  }

  /** The 1-based column whose header is `header` (trimmed, case-insensitive). */
  columnOf(title: string, header: string): number {
    const index = this.headers(title).findIndex((cell) => cell.trim().toLowerCase() === header.toLowerCase());
    if (index === -1) throw new Error(`No column ${header} in ${title}`);
    return index + 1;
  }

  /** Types into one cell: `cell` is A1 (`C7`) or the row's id and a header. */
  setCell(title: string, cell: string | { id: string; header: string }, value: string): void {
    const sheet = this.requireSheet(title);
    const [row, column] =
      typeof cell === "string"
        ? (() => {
            const match = /^([A-Z]+)(\d+)$/i.exec(cell);
            if (!match) throw new Error(`Not a cell: ${cell}`);
            return [Number(match[2]), columnNumber(match[1]!)];
          })()
        : [this.rowNumberOf(title, cell.id), this.columnOf(title, cell.header)];
    this.writeAt(sheet, row, column, [[value]], "RAW", cell.toString());
  }

  cell(title: string, id: string, header: string): string {
    const row = this.requireSheet(title).rows[this.rowNumberOf(title, id) - 1] ?? [];
    return row[this.columnOf(title, header) - 1] ?? "";
  }

  /** Inserts a row before `rowNumber` (2 = right under the header). */
  insertRow(title: string, rowNumber: number, cells: string[] = []): void {
    const sheet = this.requireSheet(title);
    sheet.rows.splice(rowNumber - 1, 0, [...cells]);
    sheet.rowCount += 1;
  }

  deleteRow(title: string, rowNumber: number): void {
    const sheet = this.requireSheet(title);
    sheet.rows.splice(rowNumber - 1, 1);
    sheet.rowCount = Math.max(1, sheet.rowCount - 1);
  }

  /** Data → Sort range: the rows under the header sorted by one column, blank rows last. */
  sortRows(title: string, header: string, direction: "ascending" | "descending" = "ascending"): void {
    const sheet = this.requireSheet(title);
    const column = this.columnOf(title, header) - 1;
    const [head = [], ...data] = sheet.rows;
    const filled = data.filter((row) => !isBlank(row));
    const blank = data.filter((row) => isBlank(row));
    filled.sort((a, b) => (a[column] ?? "").localeCompare(b[column] ?? "") * (direction === "ascending" ? 1 : -1));
    sheet.rows = [head, ...filled, ...blank];
  }

  /** Drags a column (found by header) to another position, 1-based. */
  moveColumn(title: string, header: string, toColumn: number): void {
    const sheet = this.requireSheet(title);
    const from = this.columnOf(title, header) - 1;
    const width = Math.max(...sheet.rows.map((row) => row.length), toColumn);
    sheet.rows = sheet.rows.map((row) => {
      const padded = [...row, ...Array<string>(width - row.length).fill("")];
      const [moved = ""] = padded.splice(from, 1);
      padded.splice(toColumn - 1, 0, moved);
      while (padded.length > 0 && padded.at(-1) === "") padded.pop();
      return padded;
    });
  }

  /** Inserts a blank column before `atColumn` with a header, as staff add their own notes column. */
  insertColumn(title: string, atColumn: number, header: string): void {
    const sheet = this.requireSheet(title);
    sheet.columnCount += 1;
    sheet.rows = sheet.rows.map((row, i) => {
      const padded = [...row, ...Array<string>(Math.max(0, atColumn - 1 - row.length)).fill("")];
      padded.splice(atColumn - 1, 0, i === 0 ? header : "");
      return padded;
    });
  }
}
