/** Reading tabs for the replica: whole tabs, or the new rows of append-only ones, with their headers checked on each read. */
import { cellText, type DriverRow, type ReadRequest, type TabSpec } from "../driver.server";
import { withRetry } from "../retry.server";
import { batchGet, checkCellsNow } from "./grid-reads.server";
import { columnLetter, isMissingTab, locateHeaders, rowsFrom, sheetRef } from "./ranges.server";
import type { SheetsState } from "./state.server";
import { checkTabsPresent, HEADER_SEARCH_ROWS, noteHeaderProblem } from "./structure.server";

/** The driver's `readTabs`: the rows read (every read retried by the policy), then the cell count looked at again when it is due. */
export async function readTabsAndCheckCells(state: SheetsState, requests: readonly ReadRequest[]): Promise<DriverRow[][]> {
  const rows = await withRetry(state.policy, () => readTabsOnce(state, requests));
  await checkCellsNow(state);
  return rows;
}

async function readTabsOnce(state: SheetsState, requests: readonly ReadRequest[]): Promise<DriverRow[][]> {
  const tabs = requests.map((request) => request.tab);
  // While a tab is missing, look each time whether staff brought it back.
  if (state.missingTabs.size > 0) await checkTabsPresent(state, tabs);
  try {
    return await readPresentTabs(state, requests);
  } catch (error) {
    if (!isMissingTab(error)) throw error;
    await checkTabsPresent(state, tabs);
    return readPresentTabs(state, requests);
  }
}

/** Reads the tabs the workbook has (a missing tab reads as no rows: it is degraded), checking each one's headers. */
async function readPresentTabs(state: SheetsState, requests: readonly ReadRequest[]): Promise<DriverRow[][]> {
  const present = requests.filter((request) => !state.missingTabs.has(request.tab.name));
  // Whole tabs are one range; a tail is its header row plus the rows from `from` on.
  const plans = present.map((request) => {
    const width = state.widths.get(request.tab.name);
    const ref = sheetRef(request.tab.name);
    return request.from === 0 || width === undefined
      ? { request, tail: false, ranges: [ref] }
      : { request, tail: true, ranges: [`${ref}!1:1`, `${ref}!A${request.from + 2}:${columnLetter(width)}`] };
  });
  const watched = watchedRange(state, present.length);
  const grids = await batchGet(state, [...plans.flatMap((plan) => plan.ranges), ...(watched ? [watched] : [])]);
  if (state.watch) state.watch.cells = watched ? (grids.at(-1) ?? []).map((row) => row.map(cellText)) : undefined;
  let next = 0;
  const results = new Map<ReadRequest, DriverRow[]>();
  for (const plan of plans) {
    const { tab } = plan.request;
    if (!plan.tail) {
      const whole = grids[next++] ?? [];
      const [headerRow = [], ...data] = whole;
      noteHeaderProblem(state, tab, whole.slice(0, HEADER_SEARCH_ROWS));
      state.widths.set(tab.name, Math.max(1, headerRow.length));
      state.lastRows.set(tab.name, whole.length);
      const rows = rowsFrom(tab, data, 2, locateHeaders(tab, headerRow));
      if (!tab.appendOnly) notePositions(state, tab, rows);
      results.set(plan.request, rows);
      continue;
    }
    const [headerRow = []] = grids[next++] ?? [];
    let data = grids[next++] ?? [];
    noteHeaderProblem(state, tab, [headerRow]);
    const columns = locateHeaders(tab, headerRow);
    const width = Math.max(1, headerRow.length);
    if (width > (state.widths.get(tab.name) ?? 0)) {
      // Staff added columns since the last read: read the tail again, wide enough.
      data = (await batchGet(state, [`${sheetRef(tab.name)}!A${plan.request.from + 2}:${columnLetter(width)}`]))[0] ?? [];
    }
    state.widths.set(tab.name, width);
    state.lastRows.set(tab.name, Math.max(state.lastRows.get(tab.name) ?? 1, plan.request.from + 1 + data.length));
    results.set(plan.request, rowsFrom(tab, data, plan.request.from + 2, columns));
  }
  return requests.map((request) => results.get(request) ?? []);
}

/**
 * The watched mirror cells, read in the same call as the tabs (docs/decisions/0081): only
 * while their tab is there (a missing tab would fail the whole read) and when tabs are read.
 */
function watchedRange(state: SheetsState, tabsRead: number): string | undefined {
  const watch = state.watch;
  if (!watch || tabsRead === 0 || !state.sheetIds.has(watch.tab.toLowerCase())) return undefined;
  return `${sheetRef(watch.tab)}!${watch.range}`;
}

/**
 * Where each row of a whole mutable tab is, as just read: the app anchors the rows it adds
 * to these tabs, so its next write to a row can go there without a lookup. A row that has
 * no anchor (added by staff) or moved since makes that write's guard refuse it, and it is
 * then found (or anchored) the slow way.
 */
function notePositions(state: SheetsState, tab: TabSpec, rows: readonly DriverRow[]): void {
  const positions = new Map<string, number>();
  for (const row of rows) {
    const id = (row.cells.id ?? "").trim();
    if (id !== "" && !positions.has(id)) positions.set(id, row.rowNumber - 1);
  }
  state.anchoredRows.set(tab.name, positions);
}
