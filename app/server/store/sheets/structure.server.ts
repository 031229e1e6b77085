/**
 * Structure checks: the app's tabs and headers are made when missing and repaired at
 * start-up, and a tab staff changed so that it cannot be read safely (a required header
 * renamed or deleted, a row above the headers, the tab renamed or deleted) is degraded,
 * with the fix in words staff can act on, until they fix it.
 */
import type { sheets_v4 } from "@googleapis/sheets";
import { cellText, type StructureProblem, type TabSpec } from "../driver.server";
import { httpStatusOf, withRetry } from "../retry.server";
import { batchGet, DEFAULT_COLUMNS, DEFAULT_ROWS, loadGrids } from "./grid-reads.server";
import { columnTagRequests, searchTags, TAB_TAG, taggedTabs, type Tagged } from "./metadata.server";
import { columnLetter, locateHeaders, sheetRef, type Grid } from "./ranges.server";
import type { SheetsState } from "./state.server";

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
export const HEADER_SEARCH_ROWS = 5;

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

/** Remembers where the tab's headers are, from its top rows as just read, and whether they leave the tab degraded. */
export function noteHeaderProblem(state: SheetsState, tab: TabSpec, top: Grid): void {
  state.headerCache.set(tab.name, locateHeaders(tab, top[0] ?? []));
  const problem = headerProblem(tab, top);
  if (problem) state.problems.set(tab.name, problem);
  else state.problems.delete(tab.name);
}

/** Marks the app tabs the workbook does not have (degraded) and clears those that are back. */
export async function checkTabsPresent(state: SheetsState, tabs: readonly TabSpec[]): Promise<void> {
  const grids = await loadGrids(state);
  const absent = tabs.filter((tab) => !grids.has(tab.name.toLowerCase()));
  // The header row's tag tells a renamed tab (and its new name) from a deleted one.
  const tagged = absent.length > 0 ? await taggedTabs(state) : new Map<string, number>();
  for (const tab of tabs) {
    if (!absent.includes(tab)) {
      if (state.missingTabs.delete(tab.name)) state.problems.delete(tab.name);
      continue;
    }
    state.missingTabs.add(tab.name);
    const renamedTo = [...grids.values()].find((grid) => grid.sheetId === tagged.get(tab.name))?.title;
    state.problems.set(tab.name, missingTabProblem(tab, renamedTo));
  }
}

/** Another app instance starting at the same moment may add a tab first: then look again. */
async function ensureTabsOnce(state: SheetsState, tabs: readonly TabSpec[]): Promise<void> {
  for (let look = 1; ; look += 1) {
    try {
      return await ensureTabsLooking(state, tabs);
    } catch (error) {
      const text = error instanceof Error ? error.message : "";
      if (look >= 3 || !/already exists/i.test(text)) throw error;
    }
  }
}

/**
 * Creates the tabs the workbook has never had, and repairs the others: missing optional
 * headers appended, text columns formatted as plain text, the header row tagged. A tab
 * renamed by staff (its tag found under another title) is not created again, and a tab
 * missing a required header or with its header row pushed down is left alone: both are
 * degraded until staff fix them.
 */
async function ensureTabsLooking(state: SheetsState, tabs: readonly TabSpec[]): Promise<void> {
  const grids = await loadGrids(state);
  const tagged = await taggedTabs(state);
  const toCreate: TabSpec[] = [];
  const renamed = new Set<string>();
  for (const tab of tabs) {
    if (grids.has(tab.name.toLowerCase())) continue;
    const taggedId = tagged.get(tab.name);
    const now = [...grids.values()].find((grid) => grid.sheetId === taggedId);
    if (now) {
      renamed.add(tab.name);
      state.missingTabs.add(tab.name);
      state.problems.set(tab.name, missingTabProblem(tab, now.title));
    } else {
      toCreate.push(tab);
    }
  }
  if (toCreate.length > 0) {
    const added = await state.api.spreadsheets.batchUpdate({
      spreadsheetId: state.spreadsheetId,
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
        state.sheetIds.set(properties.title.toLowerCase(), properties.sheetId);
      }
    }
    // The count read above misses the new tabs: look again at the next read.
    state.cells = undefined;
  }

  const present = tabs.filter((tab) => !renamed.has(tab.name));
  const tops = await batchGet(
    state,
    present.map((tab) => `${sheetRef(tab.name)}!1:${HEADER_SEARCH_ROWS}`),
  );
  const tags = present.length > 0 ? await searchTags(state, present) : new Map<string, Tagged>();
  const structure: sheets_v4.Schema$Request[] = [];
  const writes: sheets_v4.Schema$ValueRange[] = [];
  present.forEach((tab, i) => {
    const top = tops[i] ?? [];
    const fresh = top.every((row) => row.every((cell) => cellText(cell).trim() === ""));
    const problem = fresh ? undefined : headerProblem(tab, top);
    if (problem) {
      state.problems.set(tab.name, problem);
      return;
    }
    state.problems.delete(tab.name);
    state.missingTabs.delete(tab.name);
    const headerRow = top[0] ?? [];
    const located = locateHeaders(tab, headerRow);
    const missing = tab.headers.filter((header) => !located.has(header));
    const grid = grids.get(tab.name.toLowerCase());
    // Missing headers go after the last header in use, so staff columns keep their place.
    const firstFree = headerRow.length;
    missing.forEach((header, j) => located.set(header, firstFree + j));
    state.headerCache.set(tab.name, located);
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
    await state.api.spreadsheets
      .batchUpdate({ spreadsheetId: state.spreadsheetId, requestBody: { requests: structure } })
      .catch((error: unknown) => {
        if (httpStatusOf(error) !== 403) throw error;
        throw new SheetsViewerError({ cause: error });
      });
  }
  if (writes.length > 0) {
    await state.api.spreadsheets.values.batchUpdate({
      spreadsheetId: state.spreadsheetId,
      requestBody: { valueInputOption: "RAW", data: writes },
    });
  }
}

/** Makes the missing tabs and repairs the others (ensureTabsLooking), retried by the driver's policy. */
export function ensureTabs(state: SheetsState, tabs: readonly TabSpec[]): Promise<void> {
  return withRetry(state.policy, () => ensureTabsOnce(state, tabs));
}
