/**
 * The developer metadata the driver keeps in the spreadsheet: each app tab's header row
 * tagged with the tab's name, each column the app owns tagged with its header, and the
 * rows of mutable tabs anchored to their ids. Google keeps a tag on its row or column when
 * staff move things, so the app finds them again, and a guard makes a write land only
 * where its tags say.
 */
import type { sheets_v4 } from "@googleapis/sheets";
import type { TabSpec } from "../driver.server";
import type { SheetsState } from "./state.server";

/**
 * Rows are anchored to their ids with developer metadata on the row: the key names the
 * tab, the value is the id. A provisional key marks a tag not yet checked to sit on the
 * right row; nothing is ever written through it.
 */
export const PROVISIONAL_ANCHOR = "rrn.anchor.unchecked";

export function anchorKey(tab: TabSpec): string {
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

/**
 * A request that is valid only while the metadata (key, value) sits exactly on that row or
 * column: it rewrites the metadata's value unchanged. Google applies a batchUpdate's
 * requests all or none, and asks that an update's data filters match metadata, so a write
 * sent in the same batchUpdate as its guards lands only where the guards say.
 */
export function guard(
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
export function columnGuards(
  tab: TabSpec,
  sheetId: number,
  headers: readonly string[],
  columns: ReadonlyMap<string, number>,
): sheets_v4.Schema$Request[] {
  return headers.map((header) => guard(columnKey(tab), header, sheetId, "COLUMNS", columns.get(header) ?? 0));
}

/** The requests that leave exactly one tag per located header, on its column: stale or doubled tags go, missing ones are made. */
export function columnTagRequests(
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

/** Row metadata on each app tab's header row, naming the tab: a renamed tab is recognised by it, not replaced by a new empty one. */
export const TAB_TAG = "rrn.tab";

export type Tagged = { columns: Map<string, number[]>; rows: Map<string, number> };

/** One metadata search: the tabs' column tags by header (and the rows anchored to the given ids of one tab). */
export async function searchTags(
  state: SheetsState,
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
  const found = await state.api.spreadsheets.developerMetadata.search({
    spreadsheetId: state.spreadsheetId,
    requestBody: { dataFilters: filters },
  });
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

/** The app tabs whose header row carries the tab tag, by tab name: where each tab is, whatever its title now. */
export async function taggedTabs(state: SheetsState): Promise<Map<string, number>> {
  const found = await state.api.spreadsheets.developerMetadata.search({
    spreadsheetId: state.spreadsheetId,
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
