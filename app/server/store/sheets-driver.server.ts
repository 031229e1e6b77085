import { sheets, type sheets_v4 } from "@googleapis/sheets";
import { readFileSync } from "node:fs";
import { JWT, OAuth2Client } from "google-auth-library";
import { sheetValueText } from "~/domain/workbook/columns";
import type { RowCells } from "~/domain/workbook/rows";
import type { SheetsCredentials } from "../config.server";
import {
  cellText,
  cellUsageOf,
  headerKey,
  type CellUsage,
  type DriverRow,
  type ReadRequest,
  type StructureProblem,
  type TabSpec,
  type WorkbookDriver,
} from "./driver.server";
import { DEFAULT_RETRY, httpStatusOf, withDeadline, withRetry, type RetryPolicy } from "./retry.server";

export type SheetsDriverOptions = {
  spreadsheetId: string;
  credentials: SheetsCredentials;
  /** The API's root URL; the real service's when absent. */
  apiUrl?: string;
  retry?: RetryPolicy;
  /** Each HTTP request gives up after this long (and is then retried like a 5xx). */
  timeoutMs?: number;
  /** A write (with its retries) answers within this long, so a member is not kept waiting on a stalled API; 10 s when absent. */
  writeDeadlineMs?: number;
  /**
   * At most this many write calls a minute: appends and updates to every tab that arrive
   * meanwhile wait and go together in the next call. Unpaced when absent.
   */
  writeCallsPerMinute?: number;
};

/** The spreadsheet can be read but not written: shared with the service account as Viewer (or Commenter). */
class SheetsViewerError extends Error {
  override name = "SheetsViewerError";
  readonly status = 403;
  constructor(options: { cause: unknown }) {
    super(
      "the spreadsheet can be read but not changed: it is shared with the service account as Viewer. Share it as Editor (Share → the service account's e-mail → Editor)",
      options,
    );
  }
}

/** A write needs a column the tab's header row no longer has (staff deleted or renamed it): that write is refused, the others go on. */
class HeaderChangedError extends Error {
  override name = "HeaderChangedError";
  constructor(tab: TabSpec, missing: readonly string[]) {
    super(`The ${tab.name} tab has no ${missing.join(", ")} column (the header row was changed)`);
  }
}

const isStructural = (error: unknown) => error instanceof HeaderChangedError;

const SCOPES = ["https://www.googleapis.com/auth/spreadsheets"];
/** New tabs get Google's default 1,000 rows, and exactly as many columns as headers. */
const DEFAULT_ROWS = 1000;
/** The width Google gives a grid when its size is not reported. */
const DEFAULT_COLUMNS = 26;

/** How often the grids' sizes are read for the cell count (one read; appends grow them slowly). */
const CELL_CHECK_MS = 5 * 60_000;

/**
 * Rows are anchored to their ids with developer metadata on the row: the key names the
 * tab, the value is the id. A provisional key marks a tag not yet checked to sit on the
 * right row; nothing is ever written through it.
 */
const PROVISIONAL_ANCHOR = "rrn.anchor.unchecked";
const ANCHOR_ATTEMPTS = 3;

function anchorKey(tab: TabSpec): string {
  return `rrn.anchor.${tab.name}`;
}

/**
 * Each column the app owns carries column developer metadata (key naming the tab, value
 * the header), which Google keeps on the column when staff move, insert or delete columns,
 * and deletes with the column.
 */
function columnKey(tab: TabSpec): string {
  return `rrn.column.${tab.name}`;
}

/** How many times a guarded write is tried again after staff moved its row or a column. */
const GUARDED_ATTEMPTS = 3;

/**
 * A request that is valid only while the metadata (key, value) sits exactly on that row or
 * column: it rewrites the metadata's value unchanged. Google applies a batchUpdate's
 * requests all or none, and asks that an update's data filters match metadata, so a write
 * sent in the same batchUpdate as its guards lands only where the guards say.
 */
function guard(
  metadataKey: string,
  metadataValue: string,
  sheetId: number,
  dimension: "ROWS" | "COLUMNS",
  index: number,
): sheets_v4.Schema$Request {
  return {
    updateDeveloperMetadata: {
      dataFilters: [
        {
          developerMetadataLookup: {
            metadataKey,
            metadataValue,
            locationType: dimension === "ROWS" ? "ROW" : "COLUMN",
            metadataLocation: { dimensionRange: { sheetId, dimension, startIndex: index, endIndex: index + 1 } },
            locationMatchingStrategy: "EXACT_LOCATION",
          },
        },
      ],
      developerMetadata: { metadataValue },
      fields: "metadataValue",
    },
  };
}

/** Guards that each header's column is still where the app last saw it. */
function columnGuards(
  tab: TabSpec,
  sheetId: number,
  headers: readonly string[],
  columns: ReadonlyMap<string, number>,
): sheets_v4.Schema$Request[] {
  return headers.map((header) => guard(columnKey(tab), header, sheetId, "COLUMNS", columns.get(header) ?? 0));
}

/** The requests that leave exactly one tag per located header, on its column: stale or doubled tags go, missing ones are made. */
function columnTagRequests(
  tab: TabSpec,
  sheetId: number,
  located: ReadonlyMap<string, number>,
  tagged: ReadonlyMap<string, readonly number[]>,
): sheets_v4.Schema$Request[] {
  const requests: sheets_v4.Schema$Request[] = [];
  for (const [header, column] of located) {
    const at = tagged.get(header) ?? [];
    if (at.length === 1 && at[0] === column) continue;
    if (at.length > 0) {
      requests.push({
        deleteDeveloperMetadata: {
          dataFilter: { developerMetadataLookup: { metadataKey: columnKey(tab), metadataValue: header, locationType: "COLUMN" } },
        },
      });
    }
    requests.push({
      createDeveloperMetadata: {
        developerMetadata: {
          metadataKey: columnKey(tab),
          metadataValue: header,
          visibility: "DOCUMENT",
          location: { dimensionRange: { sheetId, dimension: "COLUMNS", startIndex: column, endIndex: column + 1 } },
        },
      },
    });
  }
  return requests;
}

function columnLetter(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

function sheetRef(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

/** Where google-auth-library sends a service account's signed assertion, whatever the key's `token_uri` says. */
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/**
 * A service account client that honours the key's `token_uri`: google-auth-library's JWT
 * client ignores it and always posts to Google's token URL, so the request is redirected.
 * The assertion's audience stays Google's token URL, as Google requires. This is what lets
 * the sign-in path run against a local token endpoint (the fake Sheets server's).
 */
function serviceAccountClient(key: Record<string, unknown>): JWT {
  const text = (name: string) => (typeof key[name] === "string" ? (key[name] as string) : undefined);
  const client = new JWT({ email: text("client_email"), key: text("private_key"), keyId: text("private_key_id"), scopes: SCOPES });
  const tokenUri = text("token_uri");
  if (tokenUri !== undefined && tokenUri !== GOOGLE_TOKEN_URL) {
    client.transporter.interceptors.request.add({
      resolved: async (request) => (String(request.url) === GOOGLE_TOKEN_URL ? { ...request, url: new URL(tokenUri) } : request),
    });
  }
  return client;
}

/** The key file GOOGLE_APPLICATION_CREDENTIALS names (its presence is checked with the configuration). */
function keyFileJson(file: string): Record<string, unknown> {
  try {
    const key: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof key === "object" && key !== null) return key as Record<string, unknown>;
  } catch {
    // Reported below, in words an operator can act on.
  }
  throw new Error(
    `GOOGLE_APPLICATION_CREDENTIALS: ${file} is not a service account key file (the JSON downloaded for the service account).`,
  );
}

function authFor(credentials: SheetsCredentials): OAuth2Client {
  switch (credentials.kind) {
    case "keyFile":
      // Read here rather than by GoogleAuth, whose client would ignore the file's token_uri.
      return serviceAccountClient(keyFileJson(credentials.path));
    case "json":
      return serviceAccountClient(credentials.json);
    case "fixedToken": {
      // A token with no expiry and no refresh token: the client never asks Google for another.
      const client = new OAuth2Client();
      client.setCredentials({ access_token: "local-fake-sheets-token" });
      return client;
    }
  }
}

type Grid = readonly (readonly unknown[])[];

/** A write waiting for the next write call; settled once, with true when stored (false: an update whose row staff deleted). */
type WriteRequest = { tab: TabSpec } & ({ kind: "append"; rows: readonly RowCells[] } | { kind: "update"; id: string; changes: RowCells });
type WriteItem = WriteRequest & {
  settled: boolean;
  resolve: (stored: boolean) => void;
  reject: (error: unknown) => void;
};

/** Where each of the app's headers is in the tab's header row (0-based), matched trimmed and case-insensitively. */
function locateHeaders(tab: TabSpec, headerRow: readonly unknown[]): Map<string, number> {
  const positions = new Map<string, number>();
  headerRow.forEach((cell, column) => {
    const key = headerKey(cellText(cell));
    if (key !== "" && !positions.has(key)) positions.set(key, column);
  });
  const located = new Map<string, number>();
  for (const header of tab.headers) {
    const column = positions.get(headerKey(header));
    if (column !== undefined) located.set(header, column);
  }
  return located;
}

/**
 * Text columns formatted as plain text (`@`), so what staff type there stays as typed:
 * `0123456` keeps its zero and `+1 512 555 0100` is not read as a formula. Applied at
 * every start-up, which also repairs a column staff reformatted.
 */
function plainTextColumns(tab: TabSpec, sheetId: number, columns: ReadonlyMap<string, number>): sheets_v4.Schema$Request[] {
  return tab.headers
    .filter((header) => tab.kinds?.[header] === "text" && columns.has(header))
    .map((header) => {
      const column = columns.get(header) ?? 0;
      return {
        repeatCell: {
          range: { sheetId, startRowIndex: 1, startColumnIndex: column, endColumnIndex: column + 1 },
          cell: { userEnteredFormat: { numberFormat: { type: "TEXT", pattern: "@" } } },
          fields: "userEnteredFormat.numberFormat",
        },
      };
    });
}

/** How many rows from the top are searched for a header row staff pushed down (a title row above it). */
const HEADER_SEARCH_ROWS = 5;
/** Row metadata on each app tab's header row, naming the tab: a renamed tab is recognised by it, not replaced by a new empty one. */
const TAB_TAG = "rrn.tab";

/** Why a tab cannot be read as it is, from its top rows (row 1 first); undefined when its required headers are all on row 1. */
function headerProblem(tab: TabSpec, top: Grid): StructureProblem | undefined {
  const required = tab.requiredHeaders ?? [];
  const located = locateHeaders(tab, top[0] ?? []);
  const missing = required.filter((header) => !located.has(header));
  if (missing.length === 0) return undefined;
  const lower = top.findIndex((row, i) => i > 0 && required.every((header) => locateHeaders(tab, row).has(header)));
  if (lower > 0) {
    return {
      tab: tab.name,
      column: null,
      problem: `the header row is on row ${lower + 1}, not row 1`,
      fix: `delete the ${lower === 1 ? "row" : `${lower} rows`} above the headers, so that the headers are on row 1`,
    };
  }
  const [first = ""] = missing;
  return {
    tab: tab.name,
    column: first,
    problem: `row 1 has no ${missing.map((header) => `"${header}"`).join(", ")} column`,
    fix: `if the header was renamed, rename it back to "${first}" (any case); if the column was deleted, restore it with Edit → Undo or File → Version history`,
  };
}

function missingTabProblem(tab: TabSpec, renamedTo?: string): StructureProblem {
  return {
    tab: tab.name,
    column: null,
    problem: renamedTo === undefined ? `the workbook has no "${tab.name}" tab` : `the "${tab.name}" tab was renamed to "${renamedTo}"`,
    fix: `rename the tab back to "${tab.name}"${renamedTo === undefined ? " (or restore it with File → Version history)" : ""}`,
  };
}

/** The API's answer when a range names a tab that does not exist. */
function isMissingTab(error: unknown): boolean {
  const record = error as { status?: unknown; message?: unknown };
  return record.status === 400 && typeof record.message === "string" && /Unable to parse range/i.test(record.message);
}

function rowsFrom(tab: TabSpec, values: Grid, firstRowNumber: number, columns: ReadonlyMap<string, number>): DriverRow[] {
  return values.map((row, i) => {
    const cells: Record<string, string> = {};
    for (const [header, column] of columns) cells[header] = sheetValueText(tab.kinds?.[header], row[column]);
    return { rowNumber: firstRowNumber + i, cells };
  });
}

/**
 * The Google Sheets driver. Every request goes through one retry policy (the client
 * library's own retry is off, because it would retry GET and PUT only). Values are
 * written RAW (string values in appended cells), so text that looks like a formula or a
 * number stays text.
 */
export function createSheetsDriver(options: SheetsDriverOptions): WorkbookDriver {
  const { spreadsheetId } = options;
  const policy = options.retry ?? DEFAULT_RETRY;
  const writeDeadlineMs = options.writeDeadlineMs ?? 10_000;
  const writeIntervalMs = options.writeCallsPerMinute ? 60_000 / options.writeCallsPerMinute : 0;
  const api = sheets({
    version: "v4",
    // Two copies of google-auth-library are installed (ours and the client's); their classes are the same at run time.
    auth: authFor(options.credentials) as unknown as sheets_v4.Options["auth"],
    ...(options.apiUrl ? { rootUrl: options.apiUrl } : {}),
    retry: false,
    timeout: options.timeoutMs ?? 20_000,
  });
  /** Columns in each tab's header row at its last read, so a tail read asks for no more columns than the grid has. */
  const widths = new Map<string, number>();
  /** Each tab's grid id, by lower-cased title. */
  const sheetIds = new Map<string, number>();
  /** Each tab's header positions at its last read. */
  const headerCache = new Map<string, Map<string, number>>();
  /** Writes waiting for the next write call, sent together as one. */
  const writes = { waiting: [] as WriteItem[], running: false, nextAt: 0 };
  /** The sheet row number of each tab's last row with data, as far as this process knows: new rows of mutable tabs are inserted under it. */
  const lastRows = new Map<string, number>();
  /** Degraded tabs, by the app's tab name. */
  const problems = new Map<string, StructureProblem>();
  /** App tabs not in the workbook at the last look (renamed or deleted by staff). */
  const missingTabs = new Set<string>();
  /** Where each anchored row was at the app's last write or look, by tab and id: guarded writes go there, and are refused if it moved. */
  const anchoredRows = new Map<string, Map<string, number>>();

  function anchoredRowsOf(tab: TabSpec): Map<string, number> {
    let rows = anchoredRows.get(tab.name);
    if (!rows) anchoredRows.set(tab.name, (rows = new Map()));
    return rows;
  }

  type Tagged = { columns: Map<string, number[]>; rows: Map<string, number> };

  /** One metadata search: the tabs' column tags by header (and the rows anchored to the given ids of one tab). */
  async function searchTags(
    tabs: readonly TabSpec[],
    anchored?: { tab: TabSpec; ids: readonly string[] | "all" },
  ): Promise<Map<string, Tagged>> {
    const filters: sheets_v4.Schema$DataFilter[] = tabs.map((tab) => ({
      developerMetadataLookup: { metadataKey: columnKey(tab), locationType: "COLUMN" },
    }));
    if (anchored?.ids === "all") filters.push({ developerMetadataLookup: { metadataKey: anchorKey(anchored.tab), locationType: "ROW" } });
    else
      for (const id of anchored?.ids ?? [])
        filters.push({ developerMetadataLookup: { metadataKey: anchorKey(anchored!.tab), metadataValue: id, locationType: "ROW" } });
    const found = await api.spreadsheets.developerMetadata.search({ spreadsheetId, requestBody: { dataFilters: filters } });
    const byTab = new Map<string, Tagged>(tabs.map((tab) => [tab.name, { columns: new Map(), rows: new Map() }]));
    for (const match of found.data.matchedDeveloperMetadata ?? []) {
      const { metadataKey, metadataValue, location } = match.developerMetadata ?? {};
      const index = location?.dimensionRange?.startIndex;
      if (metadataValue == null || index == null) continue;
      const tab = tabs.find((candidate) => columnKey(candidate) === metadataKey);
      if (tab) {
        const columns = byTab.get(tab.name)!.columns;
        columns.set(metadataValue, [...(columns.get(metadataValue) ?? []), index]);
      } else if (anchored && metadataKey === anchorKey(anchored.tab)) {
        byTab.get(anchored.tab.name)?.rows.set(metadataValue, index);
      }
    }
    return byTab;
  }

  /**
   * After a guarded write was refused (staff moved, inserted or deleted a column or moved
   * a row since the app last looked): where the tab's columns and the given ids' anchored
   * rows are now, from their tags, in one search. A needed header without a tag is looked
   * up in the header row and tagged there; a needed header not in the header row any more
   * fails with HeaderChangedError and names the problem for the tab. The rows found are
   * remembered; an id with no anchored row is left out. With "all", every anchored row of the
   * tab is looked up: after staff sorted or inserted rows, every position this process
   * remembers is stale, and one search is cheaper than one refused write per row.
   */
  async function relocate(tab: TabSpec, needed: readonly string[], ids: readonly string[] | "all" = []): Promise<void> {
    const tagged = (await searchTags([tab], { tab, ids })).get(tab.name)!;
    const columns = new Map(headerCache.get(tab.name) ?? []);
    for (const [header, at] of tagged.columns) if (at.length === 1) columns.set(header, at[0]!);
    if (ids === "all") anchoredRows.set(tab.name, new Map(tagged.rows));
    else for (const [id, row] of tagged.rows) anchoredRowsOf(tab).set(id, row);
    const untagged = needed.filter((header) => tagged.columns.get(header)?.length !== 1);
    if (untagged.length > 0) {
      const [headerRow = []] = (await batchGet([`${sheetRef(tab.name)}!1:1`]))[0] ?? [];
      const byText = locateHeaders(tab, headerRow);
      const missing = untagged.filter((header) => !byText.has(header));
      if (missing.length > 0) {
        noteHeaderProblem(tab, [headerRow]);
        throw new HeaderChangedError(tab, missing);
      }
      const retag = new Map(untagged.map((header) => [header, byText.get(header)!]));
      await api.spreadsheets.batchUpdate({
        spreadsheetId,
        requestBody: { requests: columnTagRequests(tab, await sheetIdOf(tab), retag, tagged.columns) },
      });
      for (const [header, column] of retag) columns.set(header, column);
    }
    headerCache.set(tab.name, columns);
  }

  /**
   * Values as stored, not as displayed: a number format, a date format or the sheet's
   * locale never changes what the app reads. Dates come as serial numbers.
   */
  async function batchGet(ranges: readonly string[]): Promise<Grid[]> {
    const response = await api.spreadsheets.values.batchGet({
      spreadsheetId,
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
  async function headerColumns(tab: TabSpec, needed: readonly string[]): Promise<Map<string, number>> {
    const cached = headerCache.get(tab.name);
    if (cached && needed.every((header) => cached.has(header))) return cached;
    const [headerRow = []] = (await batchGet([`${sheetRef(tab.name)}!1:1`]))[0] ?? [];
    const columns = locateHeaders(tab, headerRow);
    headerCache.set(tab.name, columns);
    const missing = needed.filter((header) => !columns.has(header));
    if (missing.length > 0) throw new HeaderChangedError(tab, missing);
    return columns;
  }

  /** Ids present in the tab: read to avoid appending a row twice when an earlier try may have reached the sheet. */
  async function storedIds(tab: TabSpec, idColumn: number): Promise<Set<string>> {
    const letter = columnLetter(idColumn + 1);
    const [column = []] = await batchGet([`${sheetRef(tab.name)}!${letter}2:${letter}`]);
    return new Set(column.map((row) => cellText(row[0]).trim()));
  }

  /** The grids' sizes at the last `spreadsheets.get`. */
  let cells: CellUsage | undefined;

  type Grids = Map<string, { sheetId: number; title: string; columnCount: number }>;

  /** The workbook's tabs by lower-cased title; also refreshes the grid ids. */
  async function loadGrids(): Promise<Grids> {
    const meta = await api.spreadsheets.get({
      spreadsheetId,
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
    cells = cellUsageOf(sizes, new Date());
    sheetIds.clear();
    for (const [title, grid] of grids) sheetIds.set(title, grid.sheetId);
    return grids;
  }

  /** Reads the grids' sizes again when the last look is older than CELL_CHECK_MS; a failure only leaves the count older. */
  async function checkCellsNow(): Promise<void> {
    if (cells && Date.now() - Date.parse(cells.checkedAt) < CELL_CHECK_MS) return;
    await loadGrids().catch(() => undefined);
  }

  async function readTabsAndCheckCells(requests: readonly ReadRequest[]): Promise<DriverRow[][]> {
    const rows = await withRetry(policy, () => readTabsOnce(requests));
    await checkCellsNow();
    return rows;
  }

  /** Marks the app tabs the workbook does not have (degraded) and clears those that are back. */
  async function checkTabsPresent(tabs: readonly TabSpec[]): Promise<void> {
    const grids = await loadGrids();
    const absent = tabs.filter((tab) => !grids.has(tab.name.toLowerCase()));
    // The header row's tag tells a renamed tab (and its new name) from a deleted one.
    const tagged = absent.length > 0 ? await taggedTabs() : new Map<string, number>();
    for (const tab of tabs) {
      if (!absent.includes(tab)) {
        if (missingTabs.delete(tab.name)) problems.delete(tab.name);
        continue;
      }
      missingTabs.add(tab.name);
      const renamedTo = [...grids.values()].find((grid) => grid.sheetId === tagged.get(tab.name))?.title;
      problems.set(tab.name, missingTabProblem(tab, renamedTo));
    }
  }

  async function readTabsOnce(requests: readonly ReadRequest[]): Promise<DriverRow[][]> {
    // While a tab is missing, look each time whether staff brought it back.
    if (missingTabs.size > 0) await checkTabsPresent(requests.map((request) => request.tab));
    try {
      return await readPresentTabs(requests);
    } catch (error) {
      if (!isMissingTab(error)) throw error;
      await checkTabsPresent(requests.map((request) => request.tab));
      return readPresentTabs(requests);
    }
  }

  /** Reads the tabs the workbook has (a missing tab reads as no rows: it is degraded), checking each one's headers. */
  async function readPresentTabs(requests: readonly ReadRequest[]): Promise<DriverRow[][]> {
    const present = requests.filter((request) => !missingTabs.has(request.tab.name));
    // Whole tabs are one range; a tail is its header row plus the rows from `from` on.
    const plans = present.map((request) => {
      const width = widths.get(request.tab.name);
      const ref = sheetRef(request.tab.name);
      return request.from === 0 || width === undefined
        ? { request, tail: false, ranges: [ref] }
        : { request, tail: true, ranges: [`${ref}!1:1`, `${ref}!A${request.from + 2}:${columnLetter(width)}`] };
    });
    const grids = await batchGet(plans.flatMap((plan) => plan.ranges));
    let next = 0;
    const results = new Map<ReadRequest, DriverRow[]>();
    for (const plan of plans) {
      const { tab } = plan.request;
      if (!plan.tail) {
        const whole = grids[next++] ?? [];
        const [headerRow = [], ...data] = whole;
        noteHeaderProblem(tab, whole.slice(0, HEADER_SEARCH_ROWS));
        widths.set(tab.name, Math.max(1, headerRow.length));
        lastRows.set(tab.name, whole.length);
        const rows = rowsFrom(tab, data, 2, locateHeaders(tab, headerRow));
        if (!tab.appendOnly) notePositions(tab, rows);
        results.set(plan.request, rows);
        continue;
      }
      const [headerRow = []] = grids[next++] ?? [];
      let data = grids[next++] ?? [];
      noteHeaderProblem(tab, [headerRow]);
      const columns = locateHeaders(tab, headerRow);
      const width = Math.max(1, headerRow.length);
      if (width > (widths.get(tab.name) ?? 0)) {
        // Staff added columns since the last read: read the tail again, wide enough.
        data = (await batchGet([`${sheetRef(tab.name)}!A${plan.request.from + 2}:${columnLetter(width)}`]))[0] ?? [];
      }
      widths.set(tab.name, width);
      lastRows.set(tab.name, Math.max(lastRows.get(tab.name) ?? 1, plan.request.from + 1 + data.length));
      results.set(plan.request, rowsFrom(tab, data, plan.request.from + 2, columns));
    }
    return requests.map((request) => results.get(request) ?? []);
  }

  /**
   * Where each row of a whole mutable tab is, as just read: the app anchors the rows it adds
   * to these tabs, so its next write to a row can go there without a lookup. A row that has
   * no anchor (added by staff) or moved since makes that write's guard refuse it, and it is
   * then found (or anchored) the slow way.
   */
  function notePositions(tab: TabSpec, rows: readonly DriverRow[]): void {
    const positions = new Map<string, number>();
    for (const row of rows) {
      const id = (row.cells.id ?? "").trim();
      if (id !== "" && !positions.has(id)) positions.set(id, row.rowNumber - 1);
    }
    anchoredRows.set(tab.name, positions);
  }

  function noteHeaderProblem(tab: TabSpec, top: Grid): void {
    headerCache.set(tab.name, locateHeaders(tab, top[0] ?? []));
    const problem = headerProblem(tab, top);
    if (problem) problems.set(tab.name, problem);
    else problems.delete(tab.name);
  }

  /** Another app instance starting at the same moment may add a tab first: then look again. */
  async function ensureTabsOnce(tabs: readonly TabSpec[]): Promise<void> {
    for (let look = 1; ; look += 1) {
      try {
        return await ensureTabsLooking(tabs);
      } catch (error) {
        const text = error instanceof Error ? error.message : "";
        if (look >= 3 || !/already exists/i.test(text)) throw error;
      }
    }
  }

  /** The app tabs whose header row carries the tab tag, by tab name: where each tab is, whatever its title now. */
  async function taggedTabs(): Promise<Map<string, number>> {
    const found = await api.spreadsheets.developerMetadata.search({
      spreadsheetId,
      requestBody: { dataFilters: [{ developerMetadataLookup: { metadataKey: TAB_TAG, locationType: "ROW" } }] },
    });
    const tagged = new Map<string, number>();
    for (const match of found.data.matchedDeveloperMetadata ?? []) {
      const { metadataValue, location } = match.developerMetadata ?? {};
      const sheetId = location?.dimensionRange?.sheetId;
      if (metadataValue != null && sheetId != null) tagged.set(metadataValue, sheetId);
    }
    return tagged;
  }

  /**
   * Creates the tabs the workbook has never had, and repairs the others: missing optional
   * headers appended, text columns formatted as plain text, the header row tagged. A tab
   * renamed by staff (its tag found under another title) is not created again, and a tab
   * missing a required header or with its header row pushed down is left alone: both are
   * degraded until staff fix them.
   */
  async function ensureTabsLooking(tabs: readonly TabSpec[]): Promise<void> {
    const grids = await loadGrids();
    const tagged = await taggedTabs();
    const toCreate: TabSpec[] = [];
    const renamed = new Set<string>();
    for (const tab of tabs) {
      if (grids.has(tab.name.toLowerCase())) continue;
      const taggedId = tagged.get(tab.name);
      const now = [...grids.values()].find((grid) => grid.sheetId === taggedId);
      if (now) {
        renamed.add(tab.name);
        missingTabs.add(tab.name);
        problems.set(tab.name, missingTabProblem(tab, now.title));
      } else {
        toCreate.push(tab);
      }
    }
    if (toCreate.length > 0) {
      const added = await api.spreadsheets.batchUpdate({
        spreadsheetId,
        requestBody: {
          requests: toCreate.map((tab) => ({
            // As wide as the headers: every row costs each of its columns against Google's 10 million-cell limit.
            addSheet: { properties: { title: tab.name, gridProperties: { rowCount: DEFAULT_ROWS, columnCount: tab.headers.length } } },
          })),
        },
      });
      for (const reply of added.data.replies ?? []) {
        const properties = reply.addSheet?.properties;
        if (properties?.title != null && properties.sheetId != null) {
          grids.set(properties.title.toLowerCase(), {
            sheetId: properties.sheetId,
            title: properties.title,
            columnCount: properties.gridProperties?.columnCount ?? DEFAULT_COLUMNS,
          });
          sheetIds.set(properties.title.toLowerCase(), properties.sheetId);
        }
      }
      // The count read above misses the new tabs: look again at the next read.
      cells = undefined;
    }

    const present = tabs.filter((tab) => !renamed.has(tab.name));
    const tops = await batchGet(present.map((tab) => `${sheetRef(tab.name)}!1:${HEADER_SEARCH_ROWS}`));
    const tags = present.length > 0 ? await searchTags(present) : new Map<string, Tagged>();
    const structure: sheets_v4.Schema$Request[] = [];
    const writes: sheets_v4.Schema$ValueRange[] = [];
    present.forEach((tab, i) => {
      const top = tops[i] ?? [];
      const fresh = top.every((row) => row.every((cell) => cellText(cell).trim() === ""));
      const problem = fresh ? undefined : headerProblem(tab, top);
      if (problem) {
        problems.set(tab.name, problem);
        return;
      }
      problems.delete(tab.name);
      missingTabs.delete(tab.name);
      const headerRow = top[0] ?? [];
      const located = locateHeaders(tab, headerRow);
      const missing = tab.headers.filter((header) => !located.has(header));
      const grid = grids.get(tab.name.toLowerCase());
      // Missing headers go after the last header in use, so staff columns keep their place.
      const firstFree = headerRow.length;
      missing.forEach((header, j) => located.set(header, firstFree + j));
      headerCache.set(tab.name, located);
      if (missing.length > 0) {
        const needed = firstFree + missing.length;
        if (grid && needed > grid.columnCount) {
          structure.push({ appendDimension: { sheetId: grid.sheetId, dimension: "COLUMNS", length: needed - grid.columnCount } });
        }
        writes.push({ range: `${sheetRef(tab.name)}!${columnLetter(firstFree + 1)}1`, values: [missing] });
      }
      if (!grid) return;
      structure.push(...plainTextColumns(tab, grid.sheetId, located));
      if (tagged.get(tab.name) !== grid.sheetId) {
        structure.push({
          createDeveloperMetadata: {
            developerMetadata: {
              metadataKey: TAB_TAG,
              metadataValue: tab.name,
              visibility: "DOCUMENT",
              location: { dimensionRange: { sheetId: grid.sheetId, dimension: "ROWS", startIndex: 0, endIndex: 1 } },
            },
          },
        });
      }
      structure.push(...columnTagRequests(tab, grid.sheetId, located, tags.get(tab.name)?.columns ?? new Map()));
    });
    // There is always a write here (the text formats) unless every tab is degraded, so a
    // spreadsheet shared as Viewer is found at start-up, not at a member's first write.
    if (structure.length > 0) {
      await api.spreadsheets.batchUpdate({ spreadsheetId, requestBody: { requests: structure } }).catch((error: unknown) => {
        if (httpStatusOf(error) !== 403) throw error;
        throw new SheetsViewerError({ cause: error });
      });
    }
    if (writes.length > 0) {
      await api.spreadsheets.values.batchUpdate({ spreadsheetId, requestBody: { valueInputOption: "RAW", data: writes } });
    }
  }

  async function notYetStored(tab: TabSpec, rows: readonly RowCells[], idColumn: number): Promise<readonly RowCells[]> {
    const ids = await storedIds(tab, idColumn);
    return rows.filter((row) => !ids.has((row.id ?? "").trim()));
  }

  /** The grid id of a tab, for requests that name sheets by id; learnt at start-up, asked again if staff recreated the tab. */
  async function sheetIdOf(tab: TabSpec): Promise<number> {
    const known = sheetIds.get(tab.name.toLowerCase());
    if (known !== undefined) return known;
    const meta = await api.spreadsheets.get({ spreadsheetId, fields: "sheets.properties(sheetId,title)" });
    for (const sheet of meta.data.sheets ?? []) {
      const { title, sheetId } = sheet.properties ?? {};
      if (title != null && sheetId != null) sheetIds.set(title.toLowerCase(), sheetId);
    }
    const found = sheetIds.get(tab.name.toLowerCase());
    if (found === undefined) throw new Error(`The ${tab.name} tab is missing`);
    return found;
  }

  /** The 0-based grid row holding this id now, read from the id column; undefined when no row has it. */
  async function locate(tab: TabSpec, id: string, idColumn: number): Promise<number | undefined> {
    const letter = columnLetter(idColumn + 1);
    const [column = []] = await batchGet([`${sheetRef(tab.name)}!${letter}:${letter}`]);
    const index = column.findIndex((row, i) => i > 0 && cellText(row[0]).trim() === id);
    return index === -1 ? undefined : index;
  }

  /**
   * Binds the row with this id to developer metadata, which Google keeps on the row
   * through sorts, inserts, deletes and moves. The row is found by its id cell, then
   * tagged with a provisional key; the tag is kept (its key made final) only if the row
   * it landed on still holds the id, because staff may have moved rows between the two
   * calls. Answers the anchored row's index; undefined when the row is not there any more.
   */
  async function anchor(tab: TabSpec, id: string, idColumn: number): Promise<number | undefined> {
    const sheetId = await sheetIdOf(tab);
    for (let attempt = 0; attempt < ANCHOR_ATTEMPTS; attempt += 1) {
      const rowIndex = await locate(tab, id, idColumn);
      if (rowIndex === undefined) return undefined;
      const created = await api.spreadsheets.batchUpdate({
        spreadsheetId,
        requestBody: {
          requests: [
            {
              createDeveloperMetadata: {
                developerMetadata: {
                  metadataKey: PROVISIONAL_ANCHOR,
                  metadataValue: id,
                  visibility: "DOCUMENT",
                  location: { dimensionRange: { sheetId, dimension: "ROWS", startIndex: rowIndex, endIndex: rowIndex + 1 } },
                },
              },
            },
          ],
        },
      });
      const metadataId = created.data.replies?.[0]?.createDeveloperMetadata?.developerMetadata?.metadataId;
      if (metadataId == null) throw new Error(`Google did not confirm the anchor of ${tab.name} row ${id}`);
      const byId = { developerMetadataLookup: { metadataId } };
      const tagged = await api.spreadsheets.values.batchGetByDataFilter({ spreadsheetId, requestBody: { dataFilters: [byId] } });
      const row = tagged.data.valueRanges?.[0]?.valueRange?.values?.[0] ?? [];
      const holdsId = cellText(row[idColumn]).trim() === id;
      await api.spreadsheets.batchUpdate({
        spreadsheetId,
        requestBody: {
          requests: [
            holdsId
              ? {
                  updateDeveloperMetadata: {
                    dataFilters: [byId],
                    developerMetadata: { metadataKey: anchorKey(tab) },
                    fields: "metadataKey",
                  },
                }
              : { deleteDeveloperMetadata: { dataFilter: byId } },
          ],
        },
      });
      if (holdsId) return rowIndex;
    }
    throw new Error(`The ${tab.name} rows kept moving while row ${id} was being anchored`);
  }

  /** Where each update's row is: as last written or looked up, else found by its anchor (one search per tab), else anchored now; undefined when staff deleted it. */
  async function placeRows(items: readonly Extract<WriteItem, { kind: "update" }>[]): Promise<Map<WriteItem, number | undefined>> {
    const unknown = items.filter((item) => !anchoredRowsOf(item.tab).has(item.id));
    for (const tab of new Set(unknown.map((item) => item.tab))) {
      await relocate(
        tab,
        [],
        unknown.filter((item) => item.tab === tab).map((item) => item.id),
      );
    }
    const placed = new Map<WriteItem, number | undefined>();
    for (const item of items) {
      placed.set(
        item,
        anchoredRowsOf(item.tab).get(item.id) ?? (await anchor(item.tab, item.id, (await headerColumns(item.tab, ["id"])).get("id") ?? 0)),
      );
    }
    return placed;
  }

  /**
   * The requests of one tab's writes: the guards of its columns, then its new rows and its
   * changed cells. New rows of an append-only tab go after its last row with data
   * (AppendCells, no table detection: a blank row or a note below the data cannot make them
   * land mid-sheet). New rows of a mutable tab are inserted under the last row this process
   * knows of, written and anchored in the same call, so they can be updated later without a
   * lookup; rows another instance added meanwhile just end up below them.
   */
  async function tabRequests(
    tab: TabSpec,
    items: readonly WriteItem[],
    placed: ReadonlyMap<WriteItem, number | undefined>,
    sent: { mayHaveStored: boolean },
  ) {
    const appends = items.flatMap((item) => (item.kind === "append" ? item.rows : []));
    const updates = items.filter(
      (item): item is Extract<WriteItem, { kind: "update" }> => item.kind === "update" && placed.get(item) !== undefined,
    );
    const headers = [...new Set([...appends.flatMap((row) => Object.keys(row)), ...updates.flatMap((item) => Object.keys(item.changes))])];
    const columns = await headerColumns(tab, [...headers, "id"]);
    const sheetId = await sheetIdOf(tab);
    const requests: sheets_v4.Schema$Request[] = columnGuards(tab, sheetId, headers, columns);
    // Updates first: the rows inserted below shift the rows under them, and the guards name rows as they are now.
    for (const item of updates) {
      const row = placed.get(item)!;
      requests.push(guard(anchorKey(tab), item.id, sheetId, "ROWS", row));
      for (const [header, value] of Object.entries(item.changes)) {
        requests.push({
          updateCells: {
            start: { sheetId, rowIndex: row, columnIndex: columns.get(header) ?? 0 },
            rows: [{ values: [{ userEnteredValue: { stringValue: value ?? "" } }] }],
            fields: "userEnteredValue",
          },
        });
      }
    }
    const anchored = new Map<string, number>();
    const pending = sent.mayHaveStored && appends.length > 0 ? await notYetStored(tab, appends, columns.get("id") ?? 0) : appends;
    if (pending.length > 0) {
      const width = Math.max(...columns.values()) + 1;
      // An empty cell is left alone: columns the app does not own stay empty in the new row.
      const rowData = pending.map((row) => {
        const cells: sheets_v4.Schema$CellData[] = Array.from({ length: width }, () => ({}));
        for (const header of headers)
          if (header in row) cells[columns.get(header) ?? 0] = { userEnteredValue: { stringValue: row[header] ?? "" } };
        return { values: cells };
      });
      if (tab.appendOnly) {
        requests.push({ appendCells: { sheetId, rows: rowData, fields: "userEnteredValue" } });
      } else {
        const at = lastRows.get(tab.name) ?? 1;
        requests.push(
          {
            insertDimension: {
              range: { sheetId, dimension: "ROWS", startIndex: at, endIndex: at + pending.length },
              inheritFromBefore: at > 1,
            },
          },
          { updateCells: { start: { sheetId, rowIndex: at, columnIndex: 0 }, rows: rowData, fields: "userEnteredValue" } },
        );
        pending.forEach((row, i) => {
          const id = (row.id ?? "").trim();
          anchored.set(id, at + i);
          requests.push({
            createDeveloperMetadata: {
              developerMetadata: {
                metadataKey: anchorKey(tab),
                metadataValue: id,
                visibility: "DOCUMENT",
                location: { dimensionRange: { sheetId, dimension: "ROWS", startIndex: at + i, endIndex: at + i + 1 } },
              },
            },
          });
        });
      }
    }
    return {
      requests,
      headers,
      anchored,
      insertedAt: tab.appendOnly || pending.length === 0 ? undefined : { at: lastRows.get(tab.name) ?? 1, count: pending.length },
    };
  }

  /**
   * One try at the waiting writes: one batchUpdate for all of them, each write sent with
   * the guards of its row's anchor and of its columns, so it lands only where the app last
   * saw them. When staff moved a row or a column since, Google applies none of it: the rows
   * and columns are found again and the call is sent again. A tab whose header row lost a
   * column a write needs refuses that write alone. `sent.mayHaveStored` carries over from
   * earlier tries: it is set by a call that failed other than with 429 or 400 (a timeout, a
   * lost answer, a 5xx may have stored the rows; 429 and 400 refuse the call whole), and
   * stays set, so a later try first checks by id which new rows are already there.
   */
  async function writeOnce(items: readonly WriteItem[], sent: { mayHaveStored: boolean }): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const live = items.filter((item) => !item.settled);
      if (live.length === 0) return;
      const placed = await placeRows(live.filter((item): item is Extract<WriteItem, { kind: "update" }> => item.kind === "update"));
      for (const [item, row] of placed) if (row === undefined) settle(item, false);
      const tabs = [...new Set(live.filter((item) => !item.settled).map((item) => item.tab))];
      const built: {
        tab: TabSpec;
        requests: sheets_v4.Schema$Request[];
        headers: string[];
        anchored: Map<string, number>;
        insertedAt: { at: number; count: number } | undefined;
      }[] = [];
      for (const tab of tabs) {
        const ofTab = live.filter((item) => item.tab === tab && !item.settled);
        try {
          built.push({ tab, ...(await tabRequests(tab, ofTab, placed, sent)) });
        } catch (error) {
          if (!isStructural(error)) throw error;
          for (const item of ofTab) settleWithError(item, error);
        }
      }
      const requests = built.flatMap((part) => part.requests);
      if (requests.every((request) => request.updateDeveloperMetadata)) {
        for (const item of live) settle(item, true);
        return;
      }
      try {
        await api.spreadsheets.batchUpdate({ spreadsheetId, requestBody: { requests } });
      } catch (error) {
        const status = httpStatusOf(error);
        if (status === 400 && attempt < GUARDED_ATTEMPTS) {
          for (const part of built) {
            const updatesRows = live.some((item) => item.kind === "update" && item.tab === part.tab);
            await relocate(part.tab, part.headers, updatesRows ? "all" : []).catch((problem: unknown) =>
              rejectTab(live, part.tab, problem),
            );
          }
          continue;
        }
        if (status !== 429 && status !== 400) sent.mayHaveStored = true;
        throw error;
      }
      for (const item of live) {
        if (item.kind === "update" && placed.get(item) !== undefined) anchoredRowsOf(item.tab).set(item.id, placed.get(item)!);
        settle(item, true);
      }
      for (const { tab, anchored, insertedAt } of built) {
        const rows = anchoredRowsOf(tab);
        if (insertedAt) {
          // The inserted rows pushed the rows under them down.
          for (const [id, row] of rows) if (row >= insertedAt.at) rows.set(id, row + insertedAt.count);
          lastRows.set(tab.name, (lastRows.get(tab.name) ?? 1) + insertedAt.count);
        }
        for (const [id, row] of anchored) rows.set(id, row);
      }
      return;
    }
  }

  function settle(item: WriteItem, stored: boolean): void {
    if (item.settled) return;
    item.settled = true;
    item.resolve(stored);
  }

  function settleWithError(item: WriteItem, error: unknown): void {
    if (item.settled) return;
    item.settled = true;
    item.reject(error);
  }

  function rejectTab(items: readonly WriteItem[], tab: TabSpec, error: unknown): void {
    if (!isStructural(error)) throw error;
    for (const item of items) if (item.tab === tab) settleWithError(item, error);
  }

  /** Writes that arrive while a write call is under way (or waiting for its turn) wait and go together in the next call. */
  function enqueue(item: WriteRequest): Promise<boolean> {
    return new Promise((resolve, reject) => {
      writes.waiting.push({ ...item, settled: false, resolve, reject });
      if (!writes.running) void drain();
    });
  }

  /**
   * Deletes the rows of an append-only tab holding these ids: the id column is read, then the
   * rows found are deleted bottom first in one call, so each deletion leaves the rows above it
   * where the read found them. Tried again whole (read included) after a failure: a try whose
   * answer was lost finds its rows gone and deletes nothing more.
   */
  async function deleteRowsOnce(tab: TabSpec, ids: readonly string[]): Promise<number> {
    const idColumn = (await headerColumns(tab, ["id"])).get("id")!;
    const letter = columnLetter(idColumn + 1);
    const [column = []] = await batchGet([`${sheetRef(tab.name)}!${letter}:${letter}`]);
    const wanted = new Set(ids);
    const found = column.flatMap((row, index) => (index > 0 && wanted.has(cellText(row[0]).trim()) ? [index] : []));
    if (found.length === 0) return 0;
    const runs: { startIndex: number; endIndex: number }[] = [];
    for (const index of found) {
      const last = runs.at(-1);
      if (last?.endIndex === index) last.endIndex += 1;
      else runs.push({ startIndex: index, endIndex: index + 1 });
    }
    const sheetId = await sheetIdOf(tab);
    const requests = runs.reverse().map((run) => ({ deleteDimension: { range: { sheetId, dimension: "ROWS", ...run } } }));
    await api.spreadsheets.batchUpdate({ spreadsheetId, requestBody: { requests } });
    return found.length;
  }

  async function drain(): Promise<void> {
    writes.running = true;
    // Writes made in the same turn of the event loop join the first call.
    await new Promise((resolve) => setImmediate(resolve));
    while (writes.waiting.length > 0) {
      // Paced: the writes that arrive while waiting for the next turn join this call.
      const wait = writes.nextAt - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      writes.nextAt = Date.now() + writeIntervalMs;
      const batch = writes.waiting.splice(0);
      try {
        // A retried call first checks (by id) which new rows the lost or timed-out try already stored, so none is added twice.
        const sent = { mayHaveStored: false };
        await withDeadline(writeDeadlineMs, policy, () => writeOnce(batch, sent));
      } catch (error) {
        for (const item of batch) settleWithError(item, error);
      }
    }
    writes.running = false;
  }

  return {
    kind: "sheets",
    ensureTabs: (tabs) => withRetry(policy, () => ensureTabsOnce(tabs)),
    readTabs: readTabsAndCheckCells,
    appendRows: async (tab, rows) => void (await enqueue({ kind: "append", tab, rows })),
    updateRow: (tab, id, changes) => enqueue({ kind: "update", tab, id, changes }),
    deleteRows: (tab, ids) => withRetry(policy, () => deleteRowsOnce(tab, ids)),
    structureProblems: () => [...problems.values()],
    cellUsage: () => cells,
    async close() {},
  };
}
