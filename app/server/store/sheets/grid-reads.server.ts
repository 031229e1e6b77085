/**
 * The reads every other part builds on: ranges of values, a tab's header positions and
 * grid id, and the grids' sizes, which give the workbook's cell count against Google's
 * limit.
 */
import { cellText, cellUsageOf, type TabSpec } from "../driver.server";
import { columnLetter, locateHeaders, sheetRef, type Grid } from "./ranges.server";
import type { SheetsState } from "./state.server";

/** New tabs get Google's default 1,000 rows, and exactly as many columns as headers. */
export const DEFAULT_ROWS = 1000;
/** The width Google gives a grid when its size is not reported. */
export const DEFAULT_COLUMNS = 26;

/** How often the grids' sizes are read for the cell count (one read; appends grow them slowly). */
const CELL_CHECK_MS = 5 * 60_000;

/** A write needs a column the tab's header row no longer has (staff deleted or renamed it): that write is refused, the others go on. */
export class HeaderChangedError extends Error {
  override name = "HeaderChangedError";
  constructor(tab: TabSpec, missing: readonly string[]) {
    super(`The ${tab.name} tab has no ${missing.join(", ")} column (the header row was changed)`);
  }
}

export const isStructural = (error: unknown) => error instanceof HeaderChangedError;

/**
 * Values as stored, not as displayed: a number format, a date format or the sheet's
 * locale never changes what the app reads. Dates come as serial numbers.
 */
export async function batchGet(state: SheetsState, ranges: readonly string[]): Promise<Grid[]> {
  const response = await state.api.spreadsheets.values.batchGet({
    spreadsheetId: state.spreadsheetId,
    ranges: [...ranges],
    valueRenderOption: "UNFORMATTED_VALUE",
    dateTimeRenderOption: "SERIAL_NUMBER",
  });
  const valueRanges = response.data.valueRanges ?? [];
  return ranges.map((_, i) => (valueRanges[i]?.values ?? []) as Grid);
}

/**
 * Where the app's headers are, as of the last read of the tab (every refresh reads each
 * header row), so a write costs no header read; read afresh when a header is not there.
 */
export async function headerColumns(state: SheetsState, tab: TabSpec, needed: readonly string[]): Promise<Map<string, number>> {
  const cached = state.headerCache.get(tab.name);
  if (cached && needed.every((header) => cached.has(header))) return cached;
  const [headerRow = []] = (await batchGet(state, [`${sheetRef(tab.name)}!1:1`]))[0] ?? [];
  const columns = locateHeaders(tab, headerRow);
  state.headerCache.set(tab.name, columns);
  const missing = needed.filter((header) => !columns.has(header));
  if (missing.length > 0) throw new HeaderChangedError(tab, missing);
  return columns;
}

/** Ids present in the tab: read to avoid appending a row twice when an earlier try may have reached the sheet. */
export async function storedIds(state: SheetsState, tab: TabSpec, idColumn: number): Promise<Set<string>> {
  const letter = columnLetter(idColumn + 1);
  const [column = []] = await batchGet(state, [`${sheetRef(tab.name)}!${letter}2:${letter}`]);
  return new Set(column.map((row) => cellText(row[0]).trim()));
}

type Grids = Map<string, { sheetId: number; title: string; columnCount: number }>;

/** The workbook's tabs by lower-cased title; also refreshes the grid ids. */
export async function loadGrids(state: SheetsState): Promise<Grids> {
  const meta = await state.api.spreadsheets.get({
    spreadsheetId: state.spreadsheetId,
    fields: "sheets.properties(sheetId,title,gridProperties(rowCount,columnCount))",
  });
  const grids: Grids = new Map();
  const sizes: { title: string; rows: number; columns: number }[] = [];
  for (const sheet of meta.data.sheets ?? []) {
    const { title, sheetId, gridProperties } = sheet.properties ?? {};
    if (title == null || sheetId == null) continue;
    const columnCount = gridProperties?.columnCount ?? DEFAULT_COLUMNS;
    grids.set(title.toLowerCase(), { sheetId, title, columnCount });
    sizes.push({ title, rows: gridProperties?.rowCount ?? DEFAULT_ROWS, columns: columnCount });
  }
  state.cells = cellUsageOf(sizes, new Date());
  state.sheetIds.clear();
  for (const [title, grid] of grids) state.sheetIds.set(title, grid.sheetId);
  return grids;
}

/** Reads the grids' sizes again when the last look is older than CELL_CHECK_MS; a failure only leaves the count older. */
export async function checkCellsNow(state: SheetsState): Promise<void> {
  if (state.cells && Date.now() - Date.parse(state.cells.checkedAt) < CELL_CHECK_MS) return;
  await loadGrids(state).catch(() => undefined);
}

/** The grid id of a tab, for requests that name sheets by id; learnt at start-up, asked again if staff recreated the tab. */
export async function sheetIdOf(state: SheetsState, tab: TabSpec): Promise<number> {
  const known = state.sheetIds.get(tab.name.toLowerCase());
  if (known !== undefined) return known;
  const meta = await state.api.spreadsheets.get({ spreadsheetId: state.spreadsheetId, fields: "sheets.properties(sheetId,title)" });
  for (const sheet of meta.data.sheets ?? []) {
    const { title, sheetId } = sheet.properties ?? {};
    if (title != null && sheetId != null) state.sheetIds.set(title.toLowerCase(), sheetId);
  }
  const found = state.sheetIds.get(tab.name.toLowerCase());
  if (found === undefined) throw new Error(`The ${tab.name} tab is missing`);
  return found;
}
