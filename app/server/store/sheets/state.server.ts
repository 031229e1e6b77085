/**
 * Everything the Sheets driver remembers between calls, in one object every part of it
 * takes: the signed-in API client, what it last saw of the workbook (grid ids, header
 * positions, anchored rows, degraded tabs, the cell count) and the writes waiting for the
 * next write call.
 */
import { sheets, type sheets_v4 } from "@googleapis/sheets";
import type { RowCells } from "~/domain/workbook/rows";
import type { SheetsCredentials } from "../../config.server";
import type { CellUsage, StructureProblem, TabSpec } from "../driver.server";
import { DEFAULT_RETRY, type RetryPolicy } from "../retry.server";
import { authFor } from "./sign-in.server";

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

/** A write waiting for the next write call; settled once, with true when stored (false: an update whose row staff deleted). */
export type WriteRequest = { tab: TabSpec } & (
  { kind: "append"; rows: readonly RowCells[] } | { kind: "update"; id: string; changes: RowCells }
);
export type WriteItem = WriteRequest & {
  settled: boolean;
  resolve: (stored: boolean) => void;
  reject: (error: unknown) => void;
};

export type SheetsState = {
  readonly api: sheets_v4.Sheets;
  readonly spreadsheetId: string;
  /** Every request goes through this one retry policy. */
  readonly policy: RetryPolicy;
  readonly writeDeadlineMs: number;
  /** The least time between two write calls; 0 when unpaced. */
  readonly writeIntervalMs: number;
  /** Columns in each tab's header row at its last read, so a tail read asks for no more columns than the grid has. */
  readonly widths: Map<string, number>;
  /** Each tab's grid id, by lower-cased title. */
  readonly sheetIds: Map<string, number>;
  /** Each tab's header positions at its last read. */
  readonly headerCache: Map<string, Map<string, number>>;
  /** Writes waiting for the next write call, sent together as one. */
  readonly writes: { waiting: WriteItem[]; running: boolean; nextAt: number };
  /** The sheet row number of each tab's last row with data, as far as this process knows: new rows of mutable tabs are inserted under it. */
  readonly lastRows: Map<string, number>;
  /** Degraded tabs, by the app's tab name. */
  readonly problems: Map<string, StructureProblem>;
  /** App tabs not in the workbook at the last look (renamed or deleted by staff). */
  readonly missingTabs: Set<string>;
  /** Where each anchored row was at the app's last write or look, by tab and id: guarded writes go there, and are refused if it moved. */
  readonly anchoredRows: Map<string, Map<string, number>>;
  /** The grids' sizes at the last `spreadsheets.get`. */
  cells: CellUsage | undefined;
  /** The mirror cells read with every read of the tabs (docs/decisions/0081), and what they held at the last. */
  watch: { tab: string; range: string; cells: string[][] | undefined } | undefined;
};

/** The client library's own retry is off, because it would retry GET and PUT only: the driver's policy retries every request. */
export function createSheetsState(options: SheetsDriverOptions): SheetsState {
  const api = sheets({
    version: "v4",
    // Two copies of google-auth-library are installed (ours and the client's); their classes are the same at run time.
    auth: authFor(options.credentials) as unknown as sheets_v4.Options["auth"],
    ...(options.apiUrl ? { rootUrl: options.apiUrl } : {}),
    retry: false,
    timeout: options.timeoutMs ?? 20_000,
  });
  return {
    api,
    spreadsheetId: options.spreadsheetId,
    policy: options.retry ?? DEFAULT_RETRY,
    writeDeadlineMs: options.writeDeadlineMs ?? 10_000,
    writeIntervalMs: options.writeCallsPerMinute ? 60_000 / options.writeCallsPerMinute : 0,
    widths: new Map(),
    sheetIds: new Map(),
    headerCache: new Map(),
    writes: { waiting: [], running: false, nextAt: 0 },
    lastRows: new Map(),
    problems: new Map(),
    missingTabs: new Set(),
    anchoredRows: new Map(),
    cells: undefined,
    watch: undefined,
  };
}
