import { createHash } from "node:crypto";
import { parseRow, serialiseRecord, type RowCells } from "~/domain/workbook/rows";
import type { DriverRow, WorkbookDriver } from "../driver.server";
import { stateFromFullRead, tabOf, type AnyRecord, type AnyTab } from "../tab-state.server";
import { describeError, type InvalidRow } from "../types.server";
import { HIGH_VOLUME_TAB_KEYS } from "./driver.server";

/*
 * `npm run store:move` (docs/decisions/0054): copies the high-volume tabs from the sheet or
 * file into PostgreSQL, or the database's rows back, tab by tab, then checks both sides.
 * Only ever adds rows to the side it copies to (the way back also writes over rows the
 * database changed); it never deletes anything on either side.
 */

/** The tabs the move copies, in the order it copies them. */
export const MOVED_TABS: readonly AnyTab[] = HIGH_VOLUME_TAB_KEYS.map(tabOf);

/** Rows per insert: one statement each on PostgreSQL, one call (or a few) on Sheets. */
const BATCH_SIZE = 5_000;
const PROGRESS_EVERY_MS = 5_000;
/** Row numbers and ids listed per tab in the report; the counts are always whole. */
const LISTED = 50;
const EXAMPLES = 5;

/** One side of the move: a driver, and how the report names it ("sheet", "file", "database"). */
export type MoveSide = { readonly driver: WorkbookDriver; readonly name: string; readonly description: string };

export type MoveOptions = {
  readonly from: MoveSide;
  readonly to: MoveSide;
  /**
   * The way back: rows the destination has whose cells differ are written over with the
   * source's, since the database is where they changed. The move into the database never
   * does: there, the database may already hold the newer row.
   */
  readonly overwriteChanged: boolean;
  readonly tabs?: readonly AnyTab[];
  readonly batchSize?: number;
  readonly progressEveryMs?: number;
  /** Aborted (Ctrl-C), the move ends the batch it is writing and stops with MoveError. */
  readonly signal?: AbortSignal;
  readonly log: (line: string) => void;
};

/** What the move did to one tab and what it found after. */
type TabOutcome = {
  readonly tab: string;
  readonly copied: number;
  readonly updated: number;
  /** Source rows that do not read (the app skips them too), left where they are. */
  readonly skipped: readonly InvalidRow[];
  /** The source's rows that read, and how many of them the destination holds. */
  readonly sourceRows: number;
  readonly destinationRows: number;
  /** Rows the destination holds that the source does not: left alone, never a mismatch. */
  readonly onlyInDestination: number;
  /** Ids of source rows the destination lacks, and of those whose cells differ. */
  readonly missing: readonly string[];
  readonly differing: readonly string[];
  /** sha256 over the source's rows in id order, each computed the same way on both sides. */
  readonly sourceChecksum: string;
  readonly destinationChecksum: string;
  readonly matches: boolean;
};

export type MoveReport = { readonly from: string; readonly to: string; readonly tabs: readonly TabOutcome[]; readonly matches: boolean };

/** A move that could not go on, said in one line: an unreachable side, a tab that cannot be read safely, a stop. */
export class MoveError extends Error {
  override name = "MoveError";
}

export async function moveTabs(options: MoveOptions): Promise<MoveReport> {
  const tabs = options.tabs ?? MOVED_TABS;
  // The destination first: an unreachable database stops the move before anything is made in the file.
  await ensureTabs(options.to, tabs);
  await ensureTabs(options.from, tabs);
  const outcomes: TabOutcome[] = [];
  for (const tab of tabs) {
    stopIfAsked(options, `before ${tab.name}`);
    outcomes.push(await moveTab(tab, options));
  }
  return { from: options.from.name, to: options.to.name, tabs: outcomes, matches: outcomes.every((outcome) => outcome.matches) };
}

/** Creates what is missing: the database's tables (its migrations), the sheet's or file's tabs and headers. */
async function ensureTabs(side: MoveSide, tabs: readonly AnyTab[]): Promise<void> {
  try {
    await side.driver.ensureTabs(tabs);
  } catch (error) {
    throw new MoveError(`Could not open ${side.description}: ${reasonOf(error)}`, { cause: error });
  }
}

async function moveTab(tab: AnyTab, options: MoveOptions): Promise<TabOutcome> {
  const written = await copyTab(tab, options);
  // Read again, after the rows read for the copy are let go: a check of what each side now holds.
  const source = await readSide(options.from, tab);
  const destination = await readSide(options.to, tab);
  return { ...compare(tab, source.rows, destination.rows), ...written, skipped: source.skipped };
}

/** Appends the rows the destination lacks (and, on the way back, writes over those that differ). */
async function copyTab(tab: AnyTab, options: MoveOptions): Promise<{ copied: number; updated: number }> {
  const { from, to } = options;
  const source = await readSide(from, tab);
  const destination = await readSide(to, tab);
  const missing = [...source.rows].filter(([id]) => !destination.rows.has(id)).map(([, cells]) => cells);
  const changed = options.overwriteChanged ? differingIds(tab, source.rows, destination.rows) : [];
  const work = [missing.length > 0 && `copying ${count(missing.length)}`, changed.length > 0 && `updating ${count(changed.length)}`];
  options.log(
    `${tab.name}: ${plural(source.rows.size, "row")} in the ${from.name}, ${count(destination.rows.size)} in the ${to.name}; ` +
      (work.filter(Boolean).join(", ") || "nothing to copy"),
  );
  const copied = await inBatches(tab, missing, options, (batch) => writeSide(to, tab, () => to.driver.appendRows(tab, batch)));
  const updated = await inBatches(tab, changed, options, (ids) =>
    writeSide(to, tab, () =>
      Promise.all(ids.map((id) => to.driver.updateRow(tab, id, changedCells(tab, source.rows, destination.rows, id)))),
    ),
  );
  return { copied, updated };
}

/**
 * Writes `items` a batch at a time, in order, telling the progress every few seconds. The
 * signal is looked at between batches: a batch is one transaction on PostgreSQL, so a stop
 * or a crash leaves whole batches, and the next run copies what is missing.
 */
async function inBatches<T>(
  tab: AnyTab,
  items: readonly T[],
  options: MoveOptions,
  write: (batch: readonly T[]) => Promise<unknown>,
): Promise<number> {
  const size = options.batchSize ?? BATCH_SIZE;
  const every = options.progressEveryMs ?? PROGRESS_EVERY_MS;
  let toldAt = Date.now();
  for (let done = 0; done < items.length;) {
    stopIfAsked(options, `in ${tab.name} after ${count(done)} of its ${plural(items.length, "row")}`);
    const batch = items.slice(done, done + size);
    await write(batch);
    done += batch.length;
    if (done < items.length && Date.now() - toldAt >= every) {
      options.log(`${tab.name}: ${count(done)} of ${plural(items.length, "row")} written`);
      toldAt = Date.now();
    }
  }
  return items.length;
}

function stopIfAsked(options: MoveOptions, where: string): void {
  if (options.signal?.aborted) throw new MoveError(`Stopped ${where}. Run the same command again to go on from there.`);
}

type SideRows = { rows: Map<string, RowCells>; skipped: readonly InvalidRow[] };

async function readSide(side: MoveSide, tab: AnyTab): Promise<SideRows> {
  let rows: DriverRow[];
  try {
    [rows = []] = await side.driver.readTabs([{ tab, from: 0 }]);
  } catch (error) {
    throw new MoveError(`Could not read ${tab.name} from ${side.description}: ${reasonOf(error)}`, { cause: error });
  }
  const problem = side.driver.structureProblems?.().find((found) => found.tab === tab.name);
  if (problem) throw new MoveError(`The ${tab.name} tab in ${side.description} cannot be read safely: ${problem.problem}. ${problem.fix}`);
  return rowsAsRead(tab, rows);
}

async function writeSide(side: MoveSide, tab: AnyTab, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    throw new MoveError(
      `Could not write ${tab.name} to ${side.description}: ${reasonOf(error)}. What was written stays; run the same command again to go on.`,
      { cause: error },
    );
  }
}

/**
 * A tab's rows as the app reads them, by id, in row order: rows that do not read and
 * repeated ids are skipped as the replica skips them (and listed), and repeated ids of a
 * tab that merges them (read positions) are merged as it merges them. Each row keeps its
 * cells exactly as they are, but for a trimmed id and the cells a merge changed.
 */
function rowsAsRead(tab: AnyTab, rows: readonly DriverRow[]): SideRows {
  const state = stateFromFullRead(tab, rows);
  const byNumber = new Map(rows.map((row) => [row.rowNumber, row.cells]));
  const repeated = repeatedIds(rows);
  const read = new Map<string, RowCells>();
  for (const [id, record] of state.records) {
    const cells = byNumber.get(state.rowOf.get(id)!)!;
    const kept = cells.id === id && !repeated.has(id);
    read.set(id, kept ? cells : { ...cells, id, ...(repeated.has(id) ? mergedCells(tab, cells, record) : {}) });
  }
  return { rows: read, skipped: state.invalid };
}

function repeatedIds(rows: readonly DriverRow[]): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const row of rows) {
    const id = (row.cells.id ?? "").trim();
    if (seen.has(id)) repeated.add(id);
    seen.add(id);
  }
  return repeated;
}

/** The cells in which a merged record differs from its first row, as the app writes them. */
function mergedCells(tab: AnyTab, firstCells: RowCells, merged: AnyRecord): RowCells {
  const first = parseRow(tab, firstCells);
  if (first.ok !== true) return {};
  const before = serialiseRecord(tab, first.record);
  const after = serialiseRecord(tab, merged);
  return Object.fromEntries(tab.headers.filter((header) => before[header] !== after[header]).map((header) => [header, after[header]]));
}

/** A row's cells in the tab's header order, the one text both sides' checksums are made of. */
function rowText(tab: AnyTab, cells: RowCells): string {
  return JSON.stringify(tab.headers.map((header) => cells[header] ?? ""));
}

function differingIds(tab: AnyTab, source: ReadonlyMap<string, RowCells>, destination: ReadonlyMap<string, RowCells>): string[] {
  return [...source]
    .filter(([id, cells]) => destination.has(id) && rowText(tab, destination.get(id)!) !== rowText(tab, cells))
    .map(([id]) => id);
}

function changedCells(
  tab: AnyTab,
  source: ReadonlyMap<string, RowCells>,
  destination: ReadonlyMap<string, RowCells>,
  id: string,
): RowCells {
  const from = source.get(id)!;
  const to = destination.get(id)!;
  return Object.fromEntries(
    tab.headers.filter((header) => (from[header] ?? "") !== (to[header] ?? "")).map((header) => [header, from[header] ?? ""]),
  );
}

/** Both sides' checksums over the source's ids (sorted), and what differs. */
function compare(tab: AnyTab, source: ReadonlyMap<string, RowCells>, destination: ReadonlyMap<string, RowCells>) {
  const ids = [...source.keys()].sort();
  const sourceHash = createHash("sha256");
  const destinationHash = createHash("sha256");
  const missing: string[] = [];
  const differing: string[] = [];
  for (const id of ids) {
    const text = rowText(tab, source.get(id)!);
    sourceHash.update(`${text}\n`);
    const held = destination.get(id);
    if (held === undefined) {
      missing.push(id);
      continue;
    }
    const heldText = rowText(tab, held);
    destinationHash.update(`${heldText}\n`);
    if (heldText !== text) differing.push(id);
  }
  return {
    tab: tab.name,
    sourceRows: ids.length,
    destinationRows: ids.length - missing.length,
    onlyInDestination: [...destination.keys()].filter((id) => !source.has(id)).length,
    missing,
    differing,
    sourceChecksum: sourceHash.digest("hex"),
    destinationChecksum: destinationHash.digest("hex"),
    matches: missing.length === 0 && differing.length === 0,
  };
}

/** The error's message, or its code when it has none (a refused connection to every address of a host). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return describeError(error) || (typeof code === "string" ? code : "unknown error");
}

/** The report the command prints: the skipped rows, a table per tab, what does not match, and one line to end. */
export function describeMove(report: MoveReport): string[] {
  const { from, to } = report;
  const showUpdated = report.tabs.some((outcome) => outcome.updated > 0);
  const header = ["Tab", "Copied", ...(showUpdated ? ["Updated"] : []), "Skipped", `In the ${from}`, `In the ${to}`, "Checksum", "Match"];
  const body = report.tabs.map((outcome) => [
    outcome.tab,
    count(outcome.copied),
    ...(showUpdated ? [count(outcome.updated)] : []),
    count(outcome.skipped.length),
    count(outcome.sourceRows),
    count(outcome.destinationRows),
    outcome.sourceChecksum === outcome.destinationChecksum
      ? outcome.sourceChecksum.slice(0, 12)
      : `${outcome.sourceChecksum.slice(0, 12)} ≠ ${outcome.destinationChecksum.slice(0, 12)}`,
    outcome.matches ? "yes" : "NO",
  ]);
  return [
    ...report.tabs.flatMap((outcome) => skippedLines(outcome, from)),
    ...table([header, ...body]),
    ...report.tabs.flatMap((outcome) => notes(outcome, from, to)),
    summary(report),
  ];
}

function skippedLines(outcome: TabOutcome, from: string): string[] {
  if (outcome.skipped.length === 0) return [];
  const listed = outcome.skipped.slice(0, LISTED).map((row) => `  row ${row.row}: ${row.reason}`);
  const more = outcome.skipped.length > LISTED ? [`  and ${outcome.skipped.length - LISTED} more`] : [];
  return [
    `${outcome.tab}: ${plural(outcome.skipped.length, "row")} not copied, which the app skips too (fix them in the ${from} and run again):`,
    ...listed,
    ...more,
  ];
}

function notes(outcome: TabOutcome, from: string, to: string): string[] {
  const lines: string[] = [];
  if (outcome.missing.length > 0)
    lines.push(
      `${outcome.tab}: ${plural(outcome.missing.length, "row")} of the ${from} missing in the ${to}: ${examples(outcome.missing)}`,
    );
  if (outcome.differing.length > 0)
    lines.push(
      `${outcome.tab}: ${plural(outcome.differing.length, "row")} differing between the ${from} and the ${to}: ${examples(outcome.differing)}`,
    );
  if (outcome.onlyInDestination > 0)
    lines.push(`${outcome.tab}: ${plural(outcome.onlyInDestination, "row")} only in the ${to}, left as they are`);
  return lines;
}

function summary(report: MoveReport): string {
  const copied = report.tabs.reduce((sum, outcome) => sum + outcome.copied + outcome.updated, 0);
  const skipped = report.tabs.reduce((sum, outcome) => sum + outcome.skipped.length, 0);
  const skippedNote = skipped > 0 ? `, ${plural(skipped, "row")} skipped as listed` : "";
  const failing = report.tabs.filter((outcome) => !outcome.matches).map((outcome) => outcome.tab);
  if (failing.length > 0)
    return `${failing.length} of ${report.tabs.length} tabs do not match: ${failing.join(", ")} (${plural(copied, "row")} written${skippedNote}).`;
  if (report.tabs.every((outcome) => outcome.sourceRows === 0))
    return `The ${report.from} holds no rows of these tabs: nothing to copy. Check that the command ran with the site's environment.`;
  if (copied === 0)
    return `Nothing to copy: the ${report.to} held every row already, and all ${report.tabs.length} tabs match${skippedNote}.`;
  return `All ${report.tabs.length} tabs match: ${plural(copied, "row")} written to the ${report.to}${skippedNote}; the ${report.from} keeps its rows.`;
}

function examples(ids: readonly string[]): string {
  return ids.length > EXAMPLES ? `${ids.slice(0, EXAMPLES).join(", ")} and ${ids.length - EXAMPLES} more` : ids.join(", ");
}

function count(rows: number): string {
  return rows.toLocaleString("en-US");
}

function plural(rows: number, word: string): string {
  return `${count(rows)} ${word}${rows === 1 ? "" : "s"}`;
}

/** Columns padded to their widest cell; numbers right-aligned. */
function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (/^[\d,]+$/.test(cell) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
}
