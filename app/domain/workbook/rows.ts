/** A tab's rows as text cells, read into typed records and written back, and the keys its indexes compare. */
import type { Column } from "./columns";
import type { IndexKey, TabDefinition, TabRecord } from "./define-tab";

/** A row as text cells by header name; missing cells count as blank. */
export type RowCells = Readonly<Record<string, string | undefined>>;

export type RowParse<T> = { ok: true; record: T } | { ok: false; reason: string } | { ok: "blank" };

/** True when every cell the tab knows is blank: such rows are skipped silently. */
function isBlankRow(tab: TabDefinition, cells: RowCells): boolean {
  return tab.headers.every((header) => (cells[header] ?? "").trim() === "");
}

/**
 * Reads one row into a record, trimming every cell; the reason names each column that did not read.
 * `share` gives the one copy of a repeating column's value its caller keeps (the replica's
 * shared strings), so records that hold it for long do not each hold their own.
 */
export function parseRow<Tab extends TabDefinition>(
  tab: Tab,
  cells: RowCells,
  share?: (value: string) => string,
): RowParse<TabRecord<Tab>> {
  if (isBlankRow(tab, cells)) return { ok: "blank" };
  const record: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const header of tab.headers) {
    const column = tab.columns[header] as Column<unknown>;
    const result = column.schema.safeParse((cells[header] ?? "").trim());
    if (result.success) record[header] = share && column.repeats && typeof result.data === "string" ? share(result.data) : result.data;
    else problems.push(`${header} ${result.error.issues.map((issue) => issue.message).join(", ")}`);
  }
  if (problems.length > 0) return { ok: false, reason: problems.join("; ") };
  return { ok: true, record: record as TabRecord<Tab> };
}

/** Writes a record as text cells by header name. */
export function serialiseRecord<Tab extends TabDefinition>(tab: Tab, record: TabRecord<Tab>): Record<string, string> {
  const cells: Record<string, string> = {};
  const values = record as Record<string, unknown>;
  for (const header of tab.headers) {
    const column = tab.columns[header] as Column<unknown>;
    cells[header] = column.write(values[header]);
  }
  return cells;
}

/** The index keys of a record, normalised the way look-ups normalise theirs. */
export function indexKeys(key: IndexKey): string[] {
  if (key === undefined) return [];
  const keys = typeof key === "string" ? [key] : key;
  return keys.map(normaliseIndexKey).filter((item) => item !== "");
}

export function normaliseIndexKey(key: string): string {
  return key.trim().toLowerCase();
}
