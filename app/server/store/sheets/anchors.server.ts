/**
 * Where the rows and columns a write goes to are now: each row the app writes to is
 * anchored to its id by row metadata, each column it owns tagged by column metadata, and
 * both are looked up again when staff moved them since the app last looked.
 */
import { cellText, type TabSpec } from "../driver.server";
import { batchGet, HeaderChangedError, headerColumns, sheetIdOf } from "./grid-reads.server";
import { anchorKey, columnTagRequests, PROVISIONAL_ANCHOR, searchTags } from "./metadata.server";
import { columnLetter, locateHeaders, sheetRef } from "./ranges.server";
import type { SheetsState, WriteItem } from "./state.server";
import { noteHeaderProblem } from "./structure.server";

const ANCHOR_ATTEMPTS = 3;

/** Where the tab's anchored rows were at the last write or look, by id. */
export function anchoredRowsOf(state: SheetsState, tab: TabSpec): Map<string, number> {
  let rows = state.anchoredRows.get(tab.name);
  if (!rows) state.anchoredRows.set(tab.name, (rows = new Map()));
  return rows;
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
export async function relocate(
  state: SheetsState,
  tab: TabSpec,
  needed: readonly string[],
  ids: readonly string[] | "all" = [],
): Promise<void> {
  const tagged = (await searchTags(state, [tab], { tab, ids })).get(tab.name)!;
  const columns = new Map(state.headerCache.get(tab.name) ?? []);
  for (const [header, at] of tagged.columns) if (at.length === 1) columns.set(header, at[0]!);
  if (ids === "all") state.anchoredRows.set(tab.name, new Map(tagged.rows));
  else for (const [id, row] of tagged.rows) anchoredRowsOf(state, tab).set(id, row);
  const untagged = needed.filter((header) => tagged.columns.get(header)?.length !== 1);
  if (untagged.length > 0) {
    const [headerRow = []] = (await batchGet(state, [`${sheetRef(tab.name)}!1:1`]))[0] ?? [];
    const byText = locateHeaders(tab, headerRow);
    const missing = untagged.filter((header) => !byText.has(header));
    if (missing.length > 0) {
      noteHeaderProblem(state, tab, [headerRow]);
      throw new HeaderChangedError(tab, missing);
    }
    const retag = new Map(untagged.map((header) => [header, byText.get(header)!]));
    await state.api.spreadsheets.batchUpdate({
      spreadsheetId: state.spreadsheetId,
      requestBody: { requests: columnTagRequests(tab, await sheetIdOf(state, tab), retag, tagged.columns) },
    });
    for (const [header, column] of retag) columns.set(header, column);
  }
  state.headerCache.set(tab.name, columns);
}

/** The 0-based grid row holding this id now, read from the id column; undefined when no row has it. */
async function locate(state: SheetsState, tab: TabSpec, id: string, idColumn: number): Promise<number | undefined> {
  const letter = columnLetter(idColumn + 1);
  const [column = []] = await batchGet(state, [`${sheetRef(tab.name)}!${letter}:${letter}`]);
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
async function anchor(state: SheetsState, tab: TabSpec, id: string, idColumn: number): Promise<number | undefined> {
  const sheetId = await sheetIdOf(state, tab);
  for (let attempt = 0; attempt < ANCHOR_ATTEMPTS; attempt += 1) {
    const rowIndex = await locate(state, tab, id, idColumn);
    if (rowIndex === undefined) return undefined;
    const created = await state.api.spreadsheets.batchUpdate({
      spreadsheetId: state.spreadsheetId,
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
    const tagged = await state.api.spreadsheets.values.batchGetByDataFilter({
      spreadsheetId: state.spreadsheetId,
      requestBody: { dataFilters: [byId] },
    });
    const row = tagged.data.valueRanges?.[0]?.valueRange?.values?.[0] ?? [];
    const holdsId = cellText(row[idColumn]).trim() === id;
    await state.api.spreadsheets.batchUpdate({
      spreadsheetId: state.spreadsheetId,
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
export async function placeRows(
  state: SheetsState,
  items: readonly Extract<WriteItem, { kind: "update" }>[],
): Promise<Map<WriteItem, number | undefined>> {
  const unknown = items.filter((item) => !anchoredRowsOf(state, item.tab).has(item.id));
  for (const tab of new Set(unknown.map((item) => item.tab))) {
    await relocate(
      state,
      tab,
      [],
      unknown.filter((item) => item.tab === tab).map((item) => item.id),
    );
  }
  const placed = new Map<WriteItem, number | undefined>();
  for (const item of items) {
    placed.set(
      item,
      anchoredRowsOf(state, item.tab).get(item.id) ??
        (await anchor(state, item.tab, item.id, (await headerColumns(state, item.tab, ["id"])).get("id") ?? 0)),
    );
  }
  return placed;
}
