/**
 * The write batcher: appends and updates to every tab that arrive while a write call is
 * under way (or waiting for its turn, when writes are paced) go together in the next
 * call, one guarded batchUpdate.
 */
import type { sheets_v4 } from "@googleapis/sheets";
import type { RowCells } from "~/domain/workbook/rows";
import type { TabSpec } from "../driver.server";
import { httpStatusOf, withDeadline } from "../retry.server";
import { anchoredRowsOf, placeRows, relocate } from "./anchors.server";
import { headerColumns, isStructural, sheetIdOf, storedIds } from "./grid-reads.server";
import { anchorKey, columnGuards, guard } from "./metadata.server";
import type { SheetsState, WriteItem, WriteRequest } from "./state.server";

/** How many times a guarded write is tried again after staff moved its row or a column. */
const GUARDED_ATTEMPTS = 3;

async function notYetStored(state: SheetsState, tab: TabSpec, rows: readonly RowCells[], idColumn: number): Promise<readonly RowCells[]> {
  const ids = await storedIds(state, tab, idColumn);
  return rows.filter((row) => !ids.has((row.id ?? "").trim()));
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
  state: SheetsState,
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
  const columns = await headerColumns(state, tab, [...headers, "id"]);
  const sheetId = await sheetIdOf(state, tab);
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
  const pending = sent.mayHaveStored && appends.length > 0 ? await notYetStored(state, tab, appends, columns.get("id") ?? 0) : appends;
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
      const at = state.lastRows.get(tab.name) ?? 1;
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
    insertedAt: tab.appendOnly || pending.length === 0 ? undefined : { at: state.lastRows.get(tab.name) ?? 1, count: pending.length },
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
async function writeOnce(state: SheetsState, items: readonly WriteItem[], sent: { mayHaveStored: boolean }): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const live = items.filter((item) => !item.settled);
    if (live.length === 0) return;
    const placed = await placeRows(
      state,
      live.filter((item): item is Extract<WriteItem, { kind: "update" }> => item.kind === "update"),
    );
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
        built.push({ tab, ...(await tabRequests(state, tab, ofTab, placed, sent)) });
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
      await state.api.spreadsheets.batchUpdate({ spreadsheetId: state.spreadsheetId, requestBody: { requests } });
    } catch (error) {
      const status = httpStatusOf(error);
      if (status === 400 && attempt < GUARDED_ATTEMPTS) {
        for (const part of built) {
          const updatesRows = live.some((item) => item.kind === "update" && item.tab === part.tab);
          await relocate(state, part.tab, part.headers, updatesRows ? "all" : []).catch((problem: unknown) =>
            rejectTab(live, part.tab, problem),
          );
        }
        continue;
      }
      if (status !== 429 && status !== 400) sent.mayHaveStored = true;
      throw error;
    }
    for (const item of live) {
      if (item.kind === "update" && placed.get(item) !== undefined) anchoredRowsOf(state, item.tab).set(item.id, placed.get(item)!);
      settle(item, true);
    }
    for (const { tab, anchored, insertedAt } of built) {
      const rows = anchoredRowsOf(state, tab);
      if (insertedAt) {
        // The inserted rows pushed the rows under them down.
        for (const [id, row] of rows) if (row >= insertedAt.at) rows.set(id, row + insertedAt.count);
        state.lastRows.set(tab.name, (state.lastRows.get(tab.name) ?? 1) + insertedAt.count);
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
export function enqueue(state: SheetsState, item: WriteRequest): Promise<boolean> {
  return new Promise((resolve, reject) => {
    state.writes.waiting.push({ ...item, settled: false, resolve, reject });
    if (!state.writes.running) void drain(state);
  });
}

async function drain(state: SheetsState): Promise<void> {
  state.writes.running = true;
  // Writes made in the same turn of the event loop join the first call.
  await new Promise((resolve) => setImmediate(resolve));
  while (state.writes.waiting.length > 0) {
    // Paced: the writes that arrive while waiting for the next turn join this call.
    const wait = state.writes.nextAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    state.writes.nextAt = Date.now() + state.writeIntervalMs;
    const batch = state.writes.waiting.splice(0);
    try {
      // A retried call first checks (by id) which new rows the lost or timed-out try already stored, so none is added twice.
      const sent = { mayHaveStored: false };
      await withDeadline(state.writeDeadlineMs, state.policy, () => writeOnce(state, batch, sent));
    } catch (error) {
      for (const item of batch) settleWithError(item, error);
    }
  }
  state.writes.running = false;
}
