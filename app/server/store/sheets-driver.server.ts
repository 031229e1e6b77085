import type { WorkbookDriver } from "./driver.server";
import { deleteRows } from "./sheets/delete-rows.server";
import { rewriteMirrors } from "./sheets/mirrors.server";
import { createSheetsState, type SheetsDriverOptions } from "./sheets/state.server";
import { ensureTabs } from "./sheets/structure.server";
import { readTabsAndCheckCells } from "./sheets/tab-reads.server";
import { enqueue } from "./sheets/write-batcher.server";

/**
 * The Google Sheets driver. Every request goes through one retry policy (the client
 * library's own retry is off, because it would retry GET and PUT only). Values are
 * written RAW (string values in appended cells), so text that looks like a formula or a
 * number stays text.
 *
 * Its parts, in `sheets/`, share one state object (`state.server.ts`): signing in
 * (`sign-in`), structure checks (`structure`), the mirror tabs (`mirrors`), the metadata tags and row anchors
 * (`metadata`, `anchors`), the write batcher (`write-batcher`), the deletion of rows (`delete-rows`), and reads and the cell
 * count (`tab-reads`, `grid-reads`, `ranges`).
 */
export function createSheetsDriver(options: SheetsDriverOptions): WorkbookDriver {
  const state = createSheetsState(options);
  return {
    kind: "sheets",
    ensureTabs: (tabs) => ensureTabs(state, tabs),
    readTabs: (requests) => readTabsAndCheckCells(state, requests),
    appendRows: async (tab, rows) => void (await enqueue(state, { kind: "append", tab, rows })),
    updateRow: (tab, id, changes) => enqueue(state, { kind: "update", tab, id, changes }),
    deleteRows: (tab, ids) => deleteRows(state, tab, ids),
    structureProblems: () => [...state.problems.values()],
    cellUsage: () => state.cells,
    mirrors: {
      watch: (tab, range) => void (state.watch = { tab, range, cells: undefined }),
      watched: () => state.watch?.cells,
      rewrite: (grids) => rewriteMirrors(state, grids),
    },
    async close() {},
  };
}
