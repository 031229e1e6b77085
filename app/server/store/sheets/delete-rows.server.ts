import { cellText, type TabSpec } from "../driver.server";
import { withRetry } from "../retry.server";
import { batchGet, headerColumns, sheetIdOf } from "./grid-reads.server";
import { columnLetter, sheetRef } from "./ranges.server";
import type { SheetsState } from "./state.server";

/**
 * Deletes the rows of an append-only tab holding these ids: the id column is read, then the
 * rows found are deleted bottom first in one call, so each deletion leaves the rows above it
 * where the read found them. Tried again whole (read included) after a failure: a try whose
 * answer was lost finds its rows gone and deletes nothing more.
 */
export function deleteRows(state: SheetsState, tab: TabSpec, ids: readonly string[]): Promise<number> {
  return withRetry(state.policy, () => deleteRowsOnce(state, tab, ids));
}

async function deleteRowsOnce(state: SheetsState, tab: TabSpec, ids: readonly string[]): Promise<number> {
  const idColumn = (await headerColumns(state, tab, ["id"])).get("id")!;
  const letter = columnLetter(idColumn + 1);
  const [column = []] = await batchGet(state, [`${sheetRef(tab.name)}!${letter}:${letter}`]);
  const wanted = new Set(ids);
  const found = column.flatMap((row, index) => (index > 0 && wanted.has(cellText(row[0]).trim()) ? [index] : []));
  if (found.length === 0) return 0;
  const runs: { startIndex: number; endIndex: number }[] = [];
  for (const index of found) {
    const last = runs.at(-1);
    if (last?.endIndex === index) last.endIndex += 1;
    else runs.push({ startIndex: index, endIndex: index + 1 });
  }
  const sheetId = await sheetIdOf(state, tab);
  const requests = runs.reverse().map((run) => ({ deleteDimension: { range: { sheetId, dimension: "ROWS", ...run } } }));
  await state.api.spreadsheets.batchUpdate({ spreadsheetId: state.spreadsheetId, requestBody: { requests } });
  return found.length;
}
