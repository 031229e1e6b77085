import type { CellKind } from "~/domain/workbook/columns";
import type { RowCells } from "~/domain/workbook/rows";

/** What a driver needs to know of a tab: its name, the headers the app owns and what each column holds. */
export type TabSpec = {
  readonly name: string;
  readonly headers: readonly string[];
  /** Text when a header has none. */
  readonly kinds?: Readonly<Record<string, CellKind>>;
  /** Headers the tab cannot be read without: when one is missing the tab is degraded, never given a new empty column. */
  readonly requiredHeaders?: readonly string[];
  /** Rows are only ever added at the bottom and never updated (messages, responses): new rows need no anchor. */
  readonly appendOnly?: boolean;
};

/**
 * A tab whose structure staff changed so that it cannot be read safely (a required
 * header renamed or deleted, a row above the headers, the tab renamed): the tab is
 * degraded until they fix it. Said in words staff can act on.
 */
export type StructureProblem = { tab: string; column: string | null; problem: string; fix: string };

/** One data row as read: the cells of the app's headers (missing columns read as blank). */
export type DriverRow = {
  /** The row's number as staff see it: the sheet's row number, or the SQLite rowid. */
  readonly rowNumber: number;
  readonly cells: Readonly<Record<string, string>>;
};

/** Read a tab's data rows from `from` on: 0 is the first row under the header, in the tab's order. */
export type ReadRequest = {
  readonly tab: TabSpec;
  readonly from: number;
};

/**
 * The small surface each storage backend implements. Columns are matched by header
 * name (trimmed, case-insensitive), rows by their id cell at the moment of writing,
 * and every cell is text. Columns the app does not know are never touched.
 */
export interface WorkbookDriver {
  readonly kind: "sqlite" | "sheets" | "postgres";
  /** Creates missing tabs and appends missing headers; existing data and extra columns are left alone. */
  ensureTabs(tabs: readonly TabSpec[]): Promise<void>;
  /** Reads several tabs at once (one request where the backend allows), answers in request order. */
  readTabs(requests: readonly ReadRequest[]): Promise<DriverRow[][]>;
  /** Appends rows at the bottom of a tab; cells by header name. */
  appendRows(tab: TabSpec, rows: readonly RowCells[]): Promise<void>;
  /** Writes the given cells of the row whose id is `id`; false when no such row exists. */
  updateRow(tab: TabSpec, id: string, changes: RowCells): Promise<boolean>;
  /**
   * Deletes the rows of an append-only tab whose id is one of `ids` (the rows below move up,
   * as when staff delete a row); resolves with how many were deleted. Only for rows no other
   * instance still needs (docs/decisions/0039): a row found gone is not an error.
   */
  deleteRows(tab: TabSpec, ids: readonly string[]): Promise<number>;
  /** The degraded tabs found by the last `ensureTabs` or `readTabs`; absent when the backend has no such states. */
  structureProblems?(): readonly StructureProblem[];
  /** The cells the workbook's grids hold at the last look; absent when the backend has no cell limit. */
  cellUsage?(): CellUsage | undefined;
  /** The mirror tabs the app rewrites whole for staff (docs/decisions/0081); absent where staff have no spreadsheet. */
  readonly mirrors?: MirrorTabs;
  /** A cheap token that changes when anyone changed the data; absent when the backend has none. */
  changeToken?(): Promise<string>;
  close(): Promise<void>;
}

/** Google's limit on the cells of one spreadsheet, blank or not, over all its tabs. */
export const GOOGLE_CELL_LIMIT = 10_000_000;

/** Cells a workbook's grids hold (rows × columns of each tab, blank cells too), against Google's limit. */
export type CellUsage = {
  used: number;
  limit: number;
  /** Of the limit, rounded to a tenth; at 70 the operator guide says what to do. */
  percent: number;
  checkedAt: string;
  tabs: { tab: string; rows: number; columns: number; cells: number }[];
};

export function cellUsageOf(grids: readonly { title: string; rows: number; columns: number }[], checkedAt: Date): CellUsage {
  const tabs = grids.map(({ title, rows, columns }) => ({ tab: title, rows, columns, cells: rows * columns }));
  const used = tabs.reduce((sum, tab) => sum + tab.cells, 0);
  return {
    used,
    limit: GOOGLE_CELL_LIMIT,
    percent: Math.round((used / GOOGLE_CELL_LIMIT) * 1000) / 10,
    checkedAt: checkedAt.toISOString(),
    tabs,
  };
}

/** Blank or missing cells count as the empty string. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : String(value);
}

/** Header matching is by name, trimmed and case-insensitive, so `Email ` finds `email`. */
export function headerKey(header: string): string {
  return header.trim().toLowerCase();
}

/**
 * One mirror tab as the app writes it, whole (docs/decisions/0081): the grid is set to exactly
 * `rows` × `columns` (a bounded cost in cells, whatever staff inserted), `cells` are written
 * from A1 as text, never a formula, and every other cell is cleared, so the tab reads right
 * after a rewrite however staff sorted or edited it, except the one cell staff type in.
 */
export type MirrorGrid = {
  readonly tab: string;
  readonly rows: number;
  readonly columns: number;
  readonly cells: readonly (readonly string[])[];
  /** The cell staff type in (0-based), left as it is. */
  readonly keep?: { readonly row: number; readonly column: number };
};

export type MirrorTabs = {
  /**
   * Reads these cells of a mirror tab (an A1 range inside it) with every later read of the
   * staff tabs, in the same call: watching costs no call of its own.
   */
  watch(tab: string, range: string): void;
  /** The watched cells as text at the last read; undefined before the first read and while the tab is missing. */
  watched(): readonly (readonly string[])[] | undefined;
  /** Writes each grid in one call (making a missing tab first); rejects when it cannot. */
  rewrite(grids: readonly MirrorGrid[]): Promise<void>;
};
