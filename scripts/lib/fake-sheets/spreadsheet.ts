import { A1Error, columnLetter, columnNumber, formatA1, parseA1, quoteSheet } from "./a1";

/** A 4xx answer of the Sheets API: a bad range, a missing tab, a write past the grid. */
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
export type CellValue = string | number | boolean;
export type ValueInputOption = "RAW" | "USER_ENTERED";
export type ValueRenderOption = "FORMATTED_VALUE" | "UNFORMATTED_VALUE" | "FORMULA";
export type DateTimeRenderOption = "SERIAL_NUMBER" | "FORMATTED_STRING";
export type Render = { value: ValueRenderOption; dateTime: DateTimeRenderOption };
const FORMATTED: Render = { value: "FORMATTED_VALUE", dateTime: "SERIAL_NUMBER" };

/** Google's `NumberFormat`: `TEXT` (`@`) keeps typed text as text; `DATE`/`DATE_TIME`/`NUMBER` patterns change how a number displays. */
export type NumberFormat = { type: "TEXT" | "NUMBER" | "PERCENT" | "CURRENCY" | "DATE" | "DATE_TIME" | "TIME"; pattern?: string };

type Cell = { value: CellValue; format?: NumberFormat };

export type DeveloperMetadata = { metadataId: number; metadataKey: string; metadataValue?: string; visibility: "DOCUMENT" | "PROJECT" };

/** A row of the grid: its cells and the developer metadata bound to it, which moves with the row. */
type Row = { cells: (Cell | undefined)[]; metadata: DeveloperMetadata[] };

export type Sheet = {
  sheetId: number;
  title: string;
  /** Row 1 is rows[0]; rows may be fewer than the grid and shorter than it (missing cells are blank). */
  rows: Row[];
  rowCount: number;
  columnCount: number;
  /** A whole column's number format (set by repeatCell over unbounded rows): cells typed later take it. */
  columnFormats: (NumberFormat | undefined)[];
  /** The developer metadata bound to each column (0-based), which moves with the column and goes when it is deleted. */
  columnMetadata: DeveloperMetadata[][];
};

/** The spreadsheet's locale decides how USER_ENTERED reads `3/4/2025`: March 4 in en_US, 3 April in en_GB. */
export type Locale = "en_US" | "en_GB";

// --- dates as Google keeps them: days since 30 Dec 1899 -------------------

const EPOCH = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

export function serialFromDate(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  return (Date.UTC(year, month - 1, day, hours, minutes, seconds) - EPOCH) / DAY_MS;
}

function dateFromSerial(serial: number): Date {
  return new Date(EPOCH + Math.round(serial * DAY_MS));
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Enough of Google's pattern language for the formats staff and the app use: yyyy, mm, m, dd, d, hh, mm (minutes), ss, and 0.00. */
function formatNumber(value: number, format: NumberFormat | undefined): string {
  if (!format || format.type === "TEXT") return String(value);
  const pattern = format.pattern ?? (format.type === "DATE" ? "m/d/yyyy" : format.type === "DATE_TIME" ? "m/d/yyyy h:mm:ss" : "");
  if (format.type === "NUMBER" || format.type === "PERCENT" || format.type === "CURRENCY")
    return formatDecimal(value, format.type, pattern);
  const date = dateFromSerial(value);
  return pattern.replace(/yyyy|mm|m|dd|d|hh|h|ss/g, (token, offset: number) => {
    const minutes =
      (token === "mm" || token === "m") && (/h+:$/.test(pattern.slice(0, offset)) || pattern.slice(offset + token.length).startsWith(":s"));
    switch (token) {
      case "yyyy":
        return String(date.getUTCFullYear());
      case "mm":
        return minutes ? pad(date.getUTCMinutes()) : pad(date.getUTCMonth() + 1);
      case "m":
        return minutes ? String(date.getUTCMinutes()) : String(date.getUTCMonth() + 1);
      case "dd":
        return pad(date.getUTCDate());
      case "d":
        return String(date.getUTCDate());
      case "hh":
        return pad(date.getUTCHours());
      case "h":
        return String(date.getUTCHours());
      default:
        return pad(date.getUTCSeconds());
    }
  });
}

/** Numbers in patterns such as `#,##0.00`, `0%` and `$#,##0.00`: decimals, thousands separators, a percent or a dollar sign. */
function formatDecimal(value: number, type: "NUMBER" | "PERCENT" | "CURRENCY", pattern: string): string {
  if (pattern === "") return String(value);
  const decimals = /\.(0+)/.exec(pattern)?.[1]?.length ?? 0;
  const shown = type === "PERCENT" ? value * 100 : value;
  const digits = Math.abs(shown).toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: pattern.includes(","),
  });
  const sign = shown < 0 ? "-" : "";
  return type === "PERCENT" ? `${sign}${digits}%` : `${sign}${pattern.includes("$") ? "$" : ""}${digits}`;
}

const isDateFormat = (format: NumberFormat | undefined) =>
  format?.type === "DATE" || format?.type === "DATE_TIME" || format?.type === "TIME";

/** What a cell shows on screen (FORMATTED_VALUE). */
function display(cell: Cell | undefined): string {
  if (!cell) return "";
  if (typeof cell.value === "boolean") return cell.value ? "TRUE" : "FALSE";
  if (typeof cell.value === "number") return formatNumber(cell.value, cell.format);
  return cell.value;
}

function rendered(cell: Cell | undefined, render: Render): CellValue {
  if (!cell) return "";
  if (render.value === "FORMATTED_VALUE") return display(cell);
  if (typeof cell.value === "number" && isDateFormat(cell.format) && render.dateTime === "FORMATTED_STRING") return display(cell);
  return cell.value;
}

const DATE_TIME = /^(\d{1,4})[/-](\d{1,2})[/-](\d{1,4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** A date staff type, as Google reads it in the sheet's locale: a serial number and the format it shows with. */
function typedDate(text: string, locale: Locale): Cell | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [a, b, c] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const isoOrder = match[1]!.length === 4;
  const [year, month, day] = isoOrder ? [a, b, c] : locale === "en_GB" ? [c, b, a] : [c, a, b];
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1000) return undefined;
  const withTime = match[4] !== undefined;
  const serial = serialFromDate(year, month, day, Number(match[4] ?? 0), Number(match[5] ?? 0), Number(match[6] ?? 0));
  const datePattern = isoOrder ? "yyyy-mm-dd" : locale === "en_GB" ? "dd/mm/yyyy" : "m/d/yyyy";
  return {
    value: serial,
    format: withTime ? { type: "DATE_TIME", pattern: `${datePattern} hh:mm:ss` } : { type: "DATE", pattern: datePattern },
  };
}

/** `25%`, `$1,250.00`, `1,250.00` and `1,234` as Google types them: a number, and the format it keeps showing. */
const TYPED_NUMBER = /^([+-]?)(\$?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(%?)$/;

function typedNumber(text: string): Cell | undefined {
  const match = TYPED_NUMBER.exec(text);
  if (!match) return undefined;
  const [, sign = "", dollar, whole = "", fraction = "", percent] = match;
  if (dollar && percent) return undefined;
  const grouped = whole.includes(",");
  if (!dollar && !percent && !grouped) return undefined;
  const number = Number(`${sign}${whole.replaceAll(",", "")}${fraction}`);
  const decimals = fraction === "" ? "" : `.${"0".repeat(Math.min(fraction.length - 1, 2) || 1)}`;
  if (percent) return { value: number / 100, format: { type: "PERCENT", pattern: `0${decimals}%` } };
  const pattern = `${grouped || dollar ? "#,##0" : "0"}${decimals}`;
  return dollar
    ? { value: number, format: { type: "CURRENCY", pattern: `$${pattern}` } }
    : { value: number, format: { type: "NUMBER", pattern } };
}

/**
 * What USER_ENTERED makes of typed text in a cell not formatted as plain text: formulas
 * are evaluated (the fake evaluates none: a formula is an error), a leading `+` starts a
 * formula (`+1 512 555 0100` is `#ERROR!`), numbers lose their leading zeros, `TRUE` is a
 * boolean, dates become serial numbers shown in a date format, percents, dollars and numbers
 * with thousands separators become numbers shown as typed (`25%` is 0.25), a leading
 * apostrophe is dropped.
 */
function userEntered(input: CellInput, locale: Locale, format: NumberFormat | undefined): Cell | undefined {
  if (input === null) return undefined;
  if (typeof input !== "string") return { value: input, ...(format ? { format } : {}) };
  if (format?.type === "TEXT") return { value: input, format };
  const text = input.trim();
  if (input.startsWith("'")) return { value: input.slice(1) };
  if (text.startsWith("=")) return { value: "#NAME?" };
  if (/^[+-]?\d+(\.\d+)?$/.test(text)) return { value: Number(text), ...(format ? { format } : {}) };
  if (text.startsWith("+")) return { value: "#ERROR!" };
  if (/^(true|false)$/i.test(text)) return { value: text.toLowerCase() === "true" };
  return typedNumber(text) ?? typedDate(text, locale) ?? { value: input };
}

function cellFrom(input: CellInput, option: ValueInputOption, locale: Locale, format: NumberFormat | undefined): Cell | undefined {
  if (option === "USER_ENTERED") return userEntered(input, locale, format);
  if (input === null) return undefined;
  return { value: input, ...(format ? { format } : {}) };
}

const isBlankCell = (cell: Cell | undefined) => !cell || cell.value === "";
const isBlank = (row: Row | undefined) => !row || row.cells.every(isBlankCell);
const newRow = (): Row => ({ cells: [], metadata: [] });

/** Google's GridRange: 0-based, end exclusive, unbounded when absent. */
export type GridRange = {
  sheetId?: number;
  startRowIndex?: number;
  endRowIndex?: number;
  startColumnIndex?: number;
  endColumnIndex?: number;
};
export type DimensionRange = { sheetId?: number; dimension?: "ROWS" | "COLUMNS"; startIndex?: number; endIndex?: number };
export type DeveloperMetadataLookup = {
  metadataId?: number;
  metadataKey?: string;
  metadataValue?: string;
  locationType?: string;
  metadataLocation?: { dimensionRange?: DimensionRange };
  locationMatchingStrategy?: "EXACT_LOCATION" | "INTERSECTING_LOCATION";
};
export type DataFilter = { developerMetadataLookup?: DeveloperMetadataLookup; a1Range?: string };
export type Dimension = "ROWS" | "COLUMNS";
/** A row or column that carries developer metadata, found by a data filter; `index` is 0-based along its dimension. */
export type MetadataMatch = { sheet: Sheet; dimension: Dimension; index: number; metadata: DeveloperMetadata };

/**
 * Whether metadata on `index` of `dimension` lies in the lookup's location: with
 * EXACT_LOCATION only on exactly that row or column range; with INTERSECTING_LOCATION
 * (Google's default) also on any range crossing it, a column always crossing a row.
 */
function inLocation(lookup: DeveloperMetadataLookup, sheet: Sheet, dimension: Dimension, index: number): boolean {
  const range = lookup.metadataLocation?.dimensionRange;
  if (!range) return true;
  if (range.sheetId !== undefined && range.sheetId !== sheet.sheetId) return false;
  const [start, end] = [range.startIndex ?? 0, range.endIndex ?? Number.POSITIVE_INFINITY];
  if (lookup.locationMatchingStrategy === "EXACT_LOCATION") return range.dimension === dimension && start === index && end === index + 1;
  return range.dimension !== dimension || (index >= start && index < end);
}

/** One spreadsheet held in memory, with the operations staff perform by hand. */
export class FakeSpreadsheet {
  readonly sheets: Sheet[] = [];
  private nextSheetId = 1;
  private nextMetadataId = 1;
  locale: Locale = "en_US";

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

  sheetById(sheetId: number | undefined): Sheet {
    const sheet = this.sheets.find((candidate) => candidate.sheetId === sheetId);
    if (!sheet) throw new SheetsRequestError(`No grid with id: ${sheetId}`);
    return sheet;
  }

  addSheet(title: string, grid: { rowCount?: number; columnCount?: number } = {}): Sheet {
    if (this.sheet(title)) throw new SheetsRequestError(`A sheet with the name "${title}" already exists. Please enter another name.`);
    const sheet: Sheet = {
      sheetId: this.nextSheetId++,
      title,
      rows: [],
      rowCount: grid.rowCount ?? 1000,
      columnCount: grid.columnCount ?? 26,
      columnFormats: [],
      columnMetadata: [],
    };
    this.sheets.push(sheet);
    return sheet;
  }

  renameSheet(title: string, newTitle: string): void {
    this.requireSheet(title).title = newTitle;
  }

  appendColumns(sheetId: number, length: number): void {
    this.sheetById(sheetId).columnCount += length;
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

  private rowAt(sheet: Sheet, rowNumber: number): Row {
    while (sheet.rows.length < rowNumber) sheet.rows.push(newRow());
    return sheet.rows[rowNumber - 1]!;
  }

  /** The cells of a block, trailing blank rows and cells left out as the API does. */
  private valuesOf(sheet: Sheet, startRow: number, endRow: number, startColumn: number, endColumn: number, render: Render): CellValue[][] {
    const values: CellValue[][] = [];
    for (let row = startRow; row <= Math.min(endRow, this.lastDataRow(sheet)); row += 1) {
      const cells = (sheet.rows[row - 1]?.cells ?? []).slice(startColumn - 1, endColumn);
      while (cells.length > 0 && isBlankCell(cells.at(-1))) cells.pop();
      values.push(Array.from(cells, (cell) => rendered(cell, render)));
    }
    while (values.length > 0 && values.at(-1)?.length === 0) values.pop();
    return values;
  }

  /** values.get: trailing blank rows and trailing blank cells are left out, as the API does. */
  read(range: string, render: Render = FORMATTED): { range: string; majorDimension: "ROWS"; values?: CellValue[][] } {
    const a1 = this.parse(range);
    const sheet = this.requireSheet(a1.sheet);
    this.checkColumns(sheet, a1.endColumn ?? a1.startColumn, range);
    const startRow = a1.startRow ?? 1;
    const startColumn = a1.startColumn ?? 1;
    const endColumn = a1.endColumn ?? sheet.columnCount;
    const values = this.valuesOf(sheet, startRow, a1.endRow ?? sheet.rowCount, startColumn, endColumn, render);
    const answered = formatA1(sheet.title, startRow, startColumn, Math.max(a1.endRow ?? sheet.rowCount, startRow), endColumn);
    return values.length > 0 ? { range: answered, majorDimension: "ROWS", values } : { range: answered, majorDimension: "ROWS" };
  }

  private writeAt(
    sheet: Sheet,
    row: number,
    column: number,
    values: readonly (readonly CellInput[])[],
    option: ValueInputOption,
    range: string,
  ) {
    const widest = Math.max(0, ...values.map((cells) => cells.length));
    this.checkColumns(sheet, column + widest - 1, range);
    let updatedCells = 0;
    values.forEach((inputs, i) => {
      const target = this.rowAt(sheet, row + i);
      inputs.forEach((input, j) => {
        if (input === null) return;
        const index = column - 1 + j;
        target.cells[index] = cellFrom(input, option, this.locale, target.cells[index]?.format ?? sheet.columnFormats[index]);
        updatedCells += 1;
      });
    });
    sheet.rowCount = Math.max(sheet.rowCount, row - 1 + values.length);
    return {
      updatedRange: formatA1(sheet.title, row, column, row + Math.max(values.length, 1) - 1, column + Math.max(widest, 1) - 1),
      updatedRows: values.length,
      updatedColumns: widest,
      updatedCells,
    };
  }

  /** values.update answers 400 for rows past the grid's last row: Google grows a grid only on appends and staff's inserts. */
  requireWithinGrid(range: string, rows: number): void {
    const a1 = this.parse(range);
    const sheet = this.requireSheet(a1.sheet);
    const lastRow = (a1.startRow ?? 1) + Math.max(rows, 1) - 1;
    if (lastRow > sheet.rowCount) {
      throw new SheetsRequestError(`Range (${range}) exceeds grid limits. Max rows: ${sheet.rowCount}, max columns: ${sheet.columnCount}`);
    }
  }

  /** values.update: writes from the range's top-left cell; null cells are left as they are. */
  write(range: string, values: readonly (readonly CellInput[])[], option: ValueInputOption) {
    const a1 = this.parse(range);
    const sheet = this.requireSheet(a1.sheet);
    return this.writeAt(sheet, a1.startRow ?? 1, a1.startColumn ?? 1, values, option, range);
  }

  /**
   * values.append as Google does it: the range's "table" is found from its top-left cell
   * (the first non-blank row and the rows that follow it without a fully blank row), and
   * the new rows go right under that table, inserted (INSERT_ROWS), so a blank row in the
   * data or a note below it makes new rows land mid-sheet.
   */
  append(range: string, values: readonly (readonly CellInput[])[], option: ValueInputOption) {
    const a1 = this.parse(range);
    const sheet = this.requireSheet(a1.sheet);
    let start = a1.startRow ?? 1;
    while (start <= sheet.rows.length && isBlank(sheet.rows[start - 1])) start += 1;
    let end = start;
    while (end <= sheet.rows.length && !isBlank(sheet.rows[end - 1])) end += 1;
    const tableFound = start <= sheet.rows.length;
    const at = tableFound ? end : (a1.startRow ?? 1);
    this.insertRows(sheet, at, values.length);
    const width = Math.max(1, ...sheet.rows.slice(start - 1, end - 1).map((row) => row.cells.length));
    const tableRange = tableFound ? formatA1(sheet.title, start, 1, end - 1, width) : undefined;
    return { tableRange, updates: this.writeAt(sheet, at, a1.startColumn ?? 1, values, option, range) };
  }

  private insertRows(sheet: Sheet, before: number, count: number): void {
    if (before - 1 <= sheet.rows.length) sheet.rows.splice(before - 1, 0, ...Array.from({ length: count }, newRow));
    sheet.rowCount += count;
  }

  /** AppendCellsRequest: after the last row with data in the sheet, no table detection; the grid grows if needed. */
  appendCells(sheetId: number | undefined, rows: readonly (readonly CellInput[])[], option: ValueInputOption): { rowIndex: number } {
    const sheet = this.sheetById(sheetId);
    const at = this.lastDataRow(sheet) + 1;
    this.writeAt(sheet, at, 1, rows, option, sheet.title);
    return { rowIndex: at - 1 };
  }

  // --- formats ------------------------------------------------------------

  /** repeatCell with a number format: every cell of the range, and over unbounded rows the column itself. */
  setNumberFormat(range: GridRange, format: NumberFormat): void {
    const sheet = this.sheetById(range.sheetId);
    const [firstColumn, lastColumn] = [range.startColumnIndex ?? 0, range.endColumnIndex ?? sheet.columnCount];
    const [firstRow, lastRow] = [range.startRowIndex ?? 0, range.endRowIndex ?? sheet.rowCount];
    for (let column = firstColumn; column < lastColumn; column += 1) {
      if (range.endRowIndex === undefined) sheet.columnFormats[column] = format;
      for (let row = firstRow; row < Math.min(lastRow, sheet.rows.length); row += 1) {
        const cell = sheet.rows[row]?.cells[column];
        if (cell) cell.format = format;
      }
    }
  }

  /** The number format in effect for a cell (its own, or its column's): what Format → Number shows. */
  numberFormat(title: string, rowNumber: number, column: number): NumberFormat | undefined {
    const sheet = this.requireSheet(title);
    return sheet.rows[rowNumber - 1]?.cells[column - 1]?.format ?? sheet.columnFormats[column - 1];
  }

  // --- developer metadata -------------------------------------------------

  createMetadata(
    sheetId: number | undefined,
    dimension: Dimension,
    index: number,
    metadata: Omit<DeveloperMetadata, "metadataId"> & { metadataId?: number },
  ): MetadataMatch {
    const sheet = this.sheetById(sheetId);
    const size = dimension === "ROWS" ? sheet.rowCount : sheet.columnCount;
    if (index < 0 || index >= size)
      throw new SheetsRequestError(`Invalid dimensionRange: ${dimension === "ROWS" ? "row" : "column"} ${index} is outside the grid`);
    if (metadata.metadataId !== undefined && this.findMetadata({ metadataId: metadata.metadataId }).length > 0) {
      throw new SheetsRequestError(`Developer metadata with id ${metadata.metadataId} already exists`);
    }
    const created = { ...metadata, metadataId: metadata.metadataId ?? this.nextMetadataId++ };
    if (dimension === "ROWS") this.rowAt(sheet, index + 1).metadata.push(created);
    else {
      while (sheet.columnMetadata.length <= index) sheet.columnMetadata.push([]);
      sheet.columnMetadata[index]!.push(created);
    }
    return { sheet, dimension, index, metadata: created };
  }

  /** Every row and column metadata matching the lookup, in sheet order, rows first. */
  findMetadata(lookup: DeveloperMetadataLookup): MetadataMatch[] {
    const matches: MetadataMatch[] = [];
    const consider = (sheet: Sheet, dimension: Dimension, index: number, metadata: DeveloperMetadata) => {
      if (lookup.locationType !== undefined && lookup.locationType !== (dimension === "ROWS" ? "ROW" : "COLUMN")) return;
      if (lookup.metadataId !== undefined && metadata.metadataId !== lookup.metadataId) return;
      if (lookup.metadataKey !== undefined && metadata.metadataKey !== lookup.metadataKey) return;
      if (lookup.metadataValue !== undefined && metadata.metadataValue !== lookup.metadataValue) return;
      if (!inLocation(lookup, sheet, dimension, index)) return;
      matches.push({ sheet, dimension, index, metadata });
    };
    for (const sheet of this.sheets) {
      sheet.rows.forEach((row, index) => row.metadata.forEach((metadata) => consider(sheet, "ROWS", index, metadata)));
      sheet.columnMetadata.forEach((list, index) => list.forEach((metadata) => consider(sheet, "COLUMNS", index, metadata)));
    }
    return matches;
  }

  deleteMetadata(lookup: DeveloperMetadataLookup): DeveloperMetadata[] {
    const matches = this.findMetadata(lookup);
    for (const { sheet, dimension, index, metadata } of matches) {
      if (dimension === "ROWS") {
        const row = sheet.rows[index]!;
        row.metadata = row.metadata.filter((candidate) => candidate !== metadata);
      } else {
        sheet.columnMetadata[index] = (sheet.columnMetadata[index] ?? []).filter((candidate) => candidate !== metadata);
      }
    }
    return matches.map((match) => match.metadata);
  }

  /** The A1 range of the row or column a metadata match is bound to, whole, as Google answers. */
  matchRange(match: MetadataMatch): string {
    const { sheet, index } = match;
    return match.dimension === "ROWS"
      ? formatA1(sheet.title, index + 1, 1, index + 1, sheet.columnCount)
      : formatA1(sheet.title, 1, index + 1, sheet.rowCount, index + 1);
  }

  readMatch(match: MetadataMatch, render: Render): { range: string; majorDimension: "ROWS"; values?: CellValue[][] } {
    const { sheet, index } = match;
    const values =
      match.dimension === "ROWS"
        ? this.valuesOf(sheet, index + 1, index + 1, 1, sheet.columnCount, render)
        : this.valuesOf(sheet, 1, sheet.rowCount, index + 1, index + 1, render);
    return values.length > 0
      ? { range: this.matchRange(match), majorDimension: "ROWS", values }
      : { range: this.matchRange(match), majorDimension: "ROWS" };
  }

  /** Writes from the matched row's (or column's) first cell; values that exceed the matched range fail the request, as Google documents. */
  writeMatch(match: MetadataMatch, values: readonly (readonly CellInput[])[], option: ValueInputOption) {
    const exceeds =
      match.dimension === "ROWS" ? values.length > 1 : values.some((row) => row.length > 1) || values.length > match.sheet.rowCount;
    if (exceeds) throw new SheetsRequestError(`The values exceed the range ${this.matchRange(match)} matched by the data filter`);
    const [row, column] = match.dimension === "ROWS" ? [match.index + 1, 1] : [1, match.index + 1];
    return this.writeAt(match.sheet, row, column, values, option, this.matchRange(match));
  }

  /** updateCells from a start cell: each cell's userEnteredValue is set (a cell without one is cleared), like RAW input; past the grid fails. */
  updateCells(start: { sheetId?: number; rowIndex?: number; columnIndex?: number }, rows: readonly (readonly CellInput[])[]): void {
    const sheet = this.sheetById(start.sheetId);
    const [row, column] = [(start.rowIndex ?? 0) + 1, (start.columnIndex ?? 0) + 1];
    if (row - 1 + rows.length > sheet.rowCount)
      throw new SheetsRequestError(`Invalid updateCells: row ${row - 1 + rows.length} is outside the grid`);
    const range = `${quoteSheet(sheet.title)}!${columnLetter(column)}${row}`;
    rows.forEach((cells, i) => {
      const target = this.rowAt(sheet, row + i);
      this.checkColumns(sheet, column + cells.length - 1, range);
      cells.forEach((input, j) => {
        const index = column - 1 + j;
        target.cells[index] = cellFrom(input, "RAW", this.locale, target.cells[index]?.format ?? sheet.columnFormats[index]);
      });
    });
  }

  /**
   * updateCells over a range: the rows given are written from its top-left cell, and every
   * cell of the range they do not cover is cleared, as Google documents for `fields`
   * `userEnteredValue`; a range past the grid fails.
   */
  updateCellsInRange(range: GridRange, rows: readonly (readonly CellInput[])[]): void {
    const sheet = this.sheetById(range.sheetId);
    const [firstRow, lastRow] = [range.startRowIndex ?? 0, range.endRowIndex ?? sheet.rowCount];
    const [firstColumn, lastColumn] = [range.startColumnIndex ?? 0, range.endColumnIndex ?? sheet.columnCount];
    if (lastRow > sheet.rowCount || lastColumn > sheet.columnCount)
      throw new SheetsRequestError(
        `Invalid updateCells: the range ends outside the grid (${sheet.rowCount} rows, ${sheet.columnCount} columns)`,
      );
    for (let row = firstRow; row < lastRow; row += 1) {
      const given = rows[row - firstRow] ?? [];
      if (row >= sheet.rows.length && given.every((cell) => cell === null)) continue;
      const target = this.rowAt(sheet, row + 1);
      for (let column = firstColumn; column < lastColumn; column += 1) {
        const input = given[column - firstColumn] ?? null;
        target.cells[column] = cellFrom(input, "RAW", this.locale, target.cells[column]?.format ?? sheet.columnFormats[column]);
      }
    }
  }

  /** updateSheetProperties of the grid's size: rows and columns past the new size go, with what they held. */
  resizeGrid(sheetId: number | undefined, size: { rowCount?: number; columnCount?: number }): void {
    const sheet = this.sheetById(sheetId);
    if (size.rowCount !== undefined) {
      if (size.rowCount < 1) throw new SheetsRequestError("You can't remove all the rows on the sheet.");
      sheet.rowCount = size.rowCount;
      sheet.rows.splice(size.rowCount);
    }
    if (size.columnCount !== undefined) {
      if (size.columnCount < 1) throw new SheetsRequestError("You can't remove all the columns on the sheet.");
      sheet.columnCount = size.columnCount;
      for (const row of sheet.rows) row.cells.splice(size.columnCount);
      sheet.columnFormats.splice(size.columnCount);
      sheet.columnMetadata.splice(size.columnCount);
    }
  }

  // --- dimensions (spreadsheets.batchUpdate, and what staff do by hand) ----

  insertDimension(range: DimensionRange): void {
    const sheet = this.sheetById(range.sheetId);
    const [start, end] = [range.startIndex ?? 0, range.endIndex ?? 0];
    if (range.dimension === "COLUMNS") {
      sheet.columnCount += end - start;
      for (const row of sheet.rows) if (row.cells.length > start) row.cells.splice(start, 0, ...Array<undefined>(end - start));
      if (sheet.columnFormats.length > start) sheet.columnFormats.splice(start, 0, ...Array<undefined>(end - start));
      if (sheet.columnMetadata.length > start) sheet.columnMetadata.splice(start, 0, ...Array.from({ length: end - start }, () => []));
      return;
    }
    this.insertRows(sheet, start + 1, end - start);
  }

  deleteDimension(range: DimensionRange): void {
    const sheet = this.sheetById(range.sheetId);
    const [start, end] = [range.startIndex ?? 0, range.endIndex ?? 0];
    if (range.dimension === "COLUMNS") {
      sheet.columnCount = Math.max(1, sheet.columnCount - (end - start));
      for (const row of sheet.rows) row.cells.splice(start, end - start);
      sheet.columnFormats.splice(start, end - start);
      // Metadata bound to a deleted column goes with it.
      sheet.columnMetadata.splice(start, end - start);
      return;
    }
    sheet.rows.splice(start, end - start);
    sheet.rowCount = Math.max(1, sheet.rowCount - (end - start));
  }

  /** moveDimension: the rows (or columns) [start, end) go before `destinationIndex` as counted before the move. */
  moveDimension(source: DimensionRange, destinationIndex: number): void {
    const sheet = this.sheetById(source.sheetId);
    const [start, end] = [source.startIndex ?? 0, source.endIndex ?? 0];
    const move = <T>(items: T[], fill: () => T): T[] => {
      while (items.length < Math.max(end, destinationIndex)) items.push(fill());
      const moved = items.splice(start, end - start);
      items.splice(destinationIndex > start ? destinationIndex - moved.length : destinationIndex, 0, ...moved);
      return items;
    };
    if (source.dimension === "COLUMNS") {
      for (const row of sheet.rows) move(row.cells, () => undefined);
      move(sheet.columnFormats, () => undefined);
      move(sheet.columnMetadata, () => []);
      return;
    }
    move(sheet.rows, newRow);
  }

  /** sortRange over whole rows: rows move with their metadata; blank sort cells last, as Google sorts. */
  sortRange(range: GridRange, sortSpecs: readonly { dimensionIndex?: number; sortOrder?: string }[]): void {
    const sheet = this.sheetById(range.sheetId);
    const first = range.startRowIndex ?? 0;
    const last = Math.min(range.endRowIndex ?? sheet.rows.length, sheet.rows.length);
    const block = sheet.rows.slice(first, last);
    const key = (row: Row, column: number) => display(row.cells[column]);
    block.sort((a, b) => {
      for (const spec of sortSpecs) {
        const column = spec.dimensionIndex ?? 0;
        const [x, y] = [key(a, column), key(b, column)];
        if (x === y) continue;
        if (x === "") return 1;
        if (y === "") return -1;
        return x.localeCompare(y) * (spec.sortOrder === "DESCENDING" ? -1 : 1);
      }
      return 0;
    });
    sheet.rows.splice(first, block.length, ...block);
  }

  // --- what staff do by hand ---------------------------------------------

  /** A copy of the tab's cells as displayed, row 1 first. */
  rows(title: string): string[][] {
    return this.requireSheet(title).rows.map((row) => {
      const cells = Array.from(row.cells, display);
      while (cells.length > 0 && cells.at(-1) === "") cells.pop();
      return cells;
    });
  }

  headers(title: string): string[] {
    return this.rows(title)[0] ?? [];
  }

  /** The sheet row number (1 = header) of the row whose `id` cell is `id`. */
  rowNumberOf(title: string, id: string): number {
    const idColumn = this.columnOf(title, "id");
    const index = this.rows(title).findIndex((row, i) => i > 0 && (row[idColumn - 1] ?? "").trim() === id);
    if (index === -1) throw new Error(`No row with id ${id} in ${title}`);
    return index + 1;
  }

  /** The 1-based column whose header is `header` (trimmed, case-insensitive). */
  columnOf(title: string, header: string): number {
    const index = this.headers(title).findIndex((cell) => cell.trim().toLowerCase() === header.toLowerCase());
    if (index === -1) throw new Error(`No column ${header} in ${title}`);
    return index + 1;
  }

  private cellAddress(title: string, cell: string | { id: string; header: string }): [number, number] {
    if (typeof cell !== "string") return [this.rowNumberOf(title, cell.id), this.columnOf(title, cell.header)];
    const match = /^([A-Z]+)(\d+)$/i.exec(cell);
    if (!match) throw new Error(`Not a cell: ${cell}`);
    return [Number(match[2]), columnNumber(match[1]!)];
  }

  /** Pastes a value as it is into one cell: `cell` is A1 (`C7`) or the row's id and a header. */
  setCell(title: string, cell: string | { id: string; header: string }, value: CellValue): void {
    const [row, column] = this.cellAddress(title, cell);
    this.writeAt(this.requireSheet(title), row, column, [[value]], "RAW", `${quoteSheet(title)}!${columnLetter(column)}${row}`);
  }

  /** Types into one cell as a person does in the browser: Google reads the text (USER_ENTERED). */
  typeCell(title: string, cell: string | { id: string; header: string }, text: string): void {
    const [row, column] = this.cellAddress(title, cell);
    this.writeAt(this.requireSheet(title), row, column, [[text]], "USER_ENTERED", `${quoteSheet(title)}!${columnLetter(column)}${row}`);
  }

  cell(title: string, id: string, header: string): string {
    const row = this.rows(title)[this.rowNumberOf(title, id) - 1] ?? [];
    return row[this.columnOf(title, header) - 1] ?? "";
  }

  /** Inserts a row before `rowNumber` (2 = right under the header). */
  insertRow(title: string, rowNumber: number, cells: string[] = []): void {
    const sheet = this.requireSheet(title);
    this.insertRows(sheet, rowNumber, 1);
    if (cells.length > 0) this.writeAt(sheet, rowNumber, 1, [cells], "RAW", title);
  }

  deleteRow(title: string, rowNumber: number): void {
    this.deleteDimension({ sheetId: this.requireSheet(title).sheetId, dimension: "ROWS", startIndex: rowNumber - 1, endIndex: rowNumber });
  }

  /** Drags row `from` to sit before row `before` (both as numbered before the move). */
  moveRow(title: string, from: number, before: number): void {
    this.moveDimension({ sheetId: this.requireSheet(title).sheetId, dimension: "ROWS", startIndex: from - 1, endIndex: from }, before - 1);
  }

  /** Data → Sort range: the rows under the header sorted by one column, blank rows last. */
  sortRows(title: string, header: string, direction: "ascending" | "descending" = "ascending"): void {
    const sheet = this.requireSheet(title);
    const column = this.columnOf(title, header) - 1;
    this.sortRange({ sheetId: sheet.sheetId, startRowIndex: 1 }, [
      { dimensionIndex: column, sortOrder: direction === "ascending" ? "ASCENDING" : "DESCENDING" },
    ]);
  }

  /** Drags a column (found by header) to another position, 1-based. */
  moveColumn(title: string, header: string, toColumn: number): void {
    const sheet = this.requireSheet(title);
    const from = this.columnOf(title, header) - 1;
    const destination = toColumn - 1 > from ? toColumn : toColumn - 1;
    this.moveDimension({ sheetId: sheet.sheetId, dimension: "COLUMNS", startIndex: from, endIndex: from + 1 }, destination);
  }

  /** Inserts a blank column before `atColumn` with a header, as staff add their own notes column. */
  insertColumn(title: string, atColumn: number, header: string): void {
    const sheet = this.requireSheet(title);
    this.insertDimension({ sheetId: sheet.sheetId, dimension: "COLUMNS", startIndex: atColumn - 1, endIndex: atColumn });
    this.writeAt(sheet, 1, atColumn, [[header]], "RAW", title);
  }

  /** Deletes a column by header, as staff do with Delete column. */
  deleteColumn(title: string, header: string): void {
    const column = this.columnOf(title, header);
    this.deleteDimension({ sheetId: this.requireSheet(title).sheetId, dimension: "COLUMNS", startIndex: column - 1, endIndex: column });
  }
}
