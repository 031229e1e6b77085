/** A1 ranges, header rows and rows as the Sheets API answers them: plain functions of the values. */
import { sheetValueText } from "~/domain/workbook/columns";
import { cellText, headerKey, type DriverRow, type TabSpec } from "../driver.server";

export function columnLetter(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

export function sheetRef(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

export type Grid = readonly (readonly unknown[])[];

/** Where each of the app's headers is in the tab's header row (0-based), matched trimmed and case-insensitively. */
export function locateHeaders(tab: TabSpec, headerRow: readonly unknown[]): Map<string, number> {
  const positions = new Map<string, number>();
  headerRow.forEach((cell, column) => {
    const key = headerKey(cellText(cell));
    if (key !== "" && !positions.has(key)) positions.set(key, column);
  });
  const located = new Map<string, number>();
  for (const header of tab.headers) {
    const column = positions.get(headerKey(header));
    if (column !== undefined) located.set(header, column);
  }
  return located;
}

/** The API's answer when a range names a tab that does not exist. */
export function isMissingTab(error: unknown): boolean {
  const record = error as { status?: unknown; message?: unknown };
  return record.status === 400 && typeof record.message === "string" && /Unable to parse range/i.test(record.message);
}

export function rowsFrom(tab: TabSpec, values: Grid, firstRowNumber: number, columns: ReadonlyMap<string, number>): DriverRow[] {
  return values.map((row, i) => {
    const cells: Record<string, string> = {};
    for (const [header, column] of columns) cells[header] = sheetValueText(tab.kinds?.[header], row[column]);
    return { rowNumber: firstRowNumber + i, cells };
  });
}
