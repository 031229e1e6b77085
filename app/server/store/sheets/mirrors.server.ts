/**
 * The mirror tabs (docs/decisions/0081): tabs the app rewrites whole for staff to read, one
 * batchUpdate for all of them. Each grid is first set to its fixed size, then written by
 * ranges whose uncovered cells Google clears, so whatever staff sorted, typed or inserted
 * there is replaced by the app's rows, except the one cell staff type in.
 */
import type { sheets_v4 } from "@googleapis/sheets";
import type { MirrorGrid } from "../driver.server";
import { httpStatusOf, withRetry } from "../retry.server";
import { loadGrids } from "./grid-reads.server";
import type { SheetsState } from "./state.server";

type Block = { top: number; bottom: number; left: number; right: number };

/** The grid cut into the blocks that cover it all but the kept cell. */
function blocksAround(grid: MirrorGrid): Block[] {
  const whole = { left: 0, right: grid.columns };
  if (!grid.keep) return [{ top: 0, bottom: grid.rows, ...whole }];
  const { row, column } = grid.keep;
  return [
    { top: 0, bottom: row, ...whole },
    { top: row, bottom: row + 1, left: 0, right: column },
    { top: row, bottom: row + 1, left: column + 1, right: grid.columns },
    { top: row + 1, bottom: grid.rows, ...whole },
  ].filter((block) => block.bottom > block.top && block.right > block.left);
}

/** Text as a string value: `=SUM(...)` typed by a member stays text here too. */
function cellData(value: string | undefined): sheets_v4.Schema$CellData {
  return value ? { userEnteredValue: { stringValue: value } } : {};
}

function gridRequests(grid: MirrorGrid, sheetId: number): sheets_v4.Schema$Request[] {
  const size: sheets_v4.Schema$Request = {
    updateSheetProperties: {
      properties: { sheetId, gridProperties: { rowCount: grid.rows, columnCount: grid.columns, frozenRowCount: 1 } },
      fields: "gridProperties.rowCount,gridProperties.columnCount,gridProperties.frozenRowCount",
    },
  };
  const writes = blocksAround(grid).map((block) => {
    const rows = grid.cells.slice(block.top, block.bottom).map((cells) => ({
      values: Array.from({ length: block.right - block.left }, (_, i) => cellData(cells[block.left + i])),
    }));
    return {
      updateCells: {
        range: { sheetId, startRowIndex: block.top, endRowIndex: block.bottom, startColumnIndex: block.left, endColumnIndex: block.right },
        rows,
        fields: "userEnteredValue",
      },
    };
  });
  return [size, ...writes];
}

/**
 * Adds the mirror tabs the workbook does not have. A tab this process has not seen may have been
 * made by another instance since it looked: it looks again first (one read, once per process),
 * and a tab added meanwhile by another instance is then simply there.
 */
async function addMissingTabs(state: SheetsState, grids: readonly MirrorGrid[]): Promise<void> {
  const unknown = () => grids.filter((grid) => !state.sheetIds.has(grid.tab.toLowerCase()));
  if (unknown().length === 0) return;
  await loadGrids(state);
  const missing = unknown();
  if (missing.length === 0) return;
  try {
    const added = await state.api.spreadsheets.batchUpdate({
      spreadsheetId: state.spreadsheetId,
      requestBody: {
        requests: missing.map((grid) => ({
          addSheet: { properties: { title: grid.tab, gridProperties: { rowCount: grid.rows, columnCount: grid.columns } } },
        })),
      },
    });
    for (const reply of added.data.replies ?? []) {
      const { title, sheetId } = reply.addSheet?.properties ?? {};
      if (title != null && sheetId != null) state.sheetIds.set(title.toLowerCase(), sheetId);
    }
  } catch (error) {
    if (!/already exists/i.test(error instanceof Error ? error.message : "")) throw error;
    await loadGrids(state);
  }
}

async function rewriteOnce(state: SheetsState, grids: readonly MirrorGrid[]): Promise<void> {
  await addMissingTabs(state, grids);
  const requests = grids.flatMap((grid) => gridRequests(grid, state.sheetIds.get(grid.tab.toLowerCase()) ?? -1));
  await state.api.spreadsheets.batchUpdate({ spreadsheetId: state.spreadsheetId, requestBody: { requests } });
}

/**
 * One write call for every grid (two when a tab must be made first), retried by the driver's
 * policy. A 400 is most likely a tab staff deleted or recreated since the app learnt its grid
 * id: the grids are looked at again and the call sent once more.
 */
export function rewriteMirrors(state: SheetsState, grids: readonly MirrorGrid[]): Promise<void> {
  return withRetry(state.policy, async () => {
    try {
      await rewriteOnce(state, grids);
    } catch (error) {
      if (httpStatusOf(error) !== 400) throw error;
      await loadGrids(state);
      await rewriteOnce(state, grids);
    }
  });
}
