/**
 * What the operator commands share: the store the app itself would use (same
 * environment variables), a pace for writes that keeps Google Sheets quotas, and
 * clear one-line failures.
 */
import { ConfigError, loadConfig, type Config } from "~/server/config.server";
import { createStoreFromConfig, describeError, sqliteStorePath, type Store } from "~/server/store/store.server";

export type OpenStore = {
  config: Config;
  store: Store;
  description: string;
  /** Await before each write: keeps a bulk run within Google's write quota. */
  beforeWrite: () => Promise<void>;
};

/** The configured store, loaded: Google Sheets when GOOGLE_SHEETS_ID is set, the SQLite file in DATA_DIR otherwise. */
export async function openConfiguredStore(env: Record<string, string | undefined> = process.env): Promise<OpenStore> {
  const config = loadConfig(env);
  const store = createStoreFromConfig(config);
  try {
    await store.refresh();
  } catch (error) {
    await store.stop();
    const hint = config.sheets
      ? "Check GOOGLE_SHEETS_ID, and that the spreadsheet is shared with the service account's e-mail as Editor."
      : `Check that ${config.dataDir} is writable.`;
    throw new OperatorError(`Could not read ${describeStore(config)}: ${describeError(error)}. ${hint}`);
  }
  // Only Google's own API has quotas; a local stand-in (GOOGLE_SHEETS_API_URL) and SQLite take writes at full speed.
  const quotaBound = config.sheets !== undefined && config.sheets.apiUrl === undefined;
  return { config, store, description: describeStore(config), beforeWrite: quotaBound ? writePacer() : () => Promise.resolve() };
}

export function describeStore(config: Config): string {
  if (!config.sheets) return `the SQLite store ${sqliteStorePath(config)}`;
  const where = config.sheets.apiUrl ? ` at ${config.sheets.apiUrl}` : "";
  return `the Google spreadsheet ${config.sheets.spreadsheetId}${where}`;
}

/**
 * Spaces out writes to Google Sheets. Google allows about 60 write requests a minute per
 * user, shared with the running site; a bulk run at full speed would spend its retries on
 * 429 answers and might give up.
 */
function writePacer(intervalMs = 1_200): () => Promise<void> {
  let last = 0;
  return async () => {
    const wait = last + intervalMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    last = Date.now();
  };
}

/** Rows a bulk command sends to the store at once: the Sheets driver appends rows that arrive together in one call. */
const ROWS_PER_CALL = 100;

export type GroupOutcome<T> = { stored: T[]; failure: { record: T; error: unknown } | undefined };

/**
 * Inserts `records` in groups of ROWS_PER_CALL, each group's inserts started together so
 * the store appends them in one or two calls instead of one per row (`beforeWrite` is
 * awaited once per group). Stops after the first group with a refused row, answering
 * the rows stored (in order) and the first refused one; a re-run picks up the rest.
 */
export async function insertInGroups<T>(
  records: readonly T[],
  insert: (record: T) => Promise<unknown>,
  beforeWrite?: () => Promise<void>,
): Promise<GroupOutcome<T>> {
  const stored: T[] = [];
  for (let start = 0; start < records.length; start += ROWS_PER_CALL) {
    const group = records.slice(start, start + ROWS_PER_CALL);
    try {
      await beforeWrite?.();
    } catch (error) {
      return { stored, failure: { record: group[0]!, error } };
    }
    const outcomes = await Promise.allSettled(group.map((record) => insert(record)));
    let failure: GroupOutcome<T>["failure"];
    outcomes.forEach((outcome, i) => {
      if (outcome.status === "fulfilled") stored.push(group[i]!);
      else failure ??= { record: group[i]!, error: outcome.reason };
    });
    if (failure) return { stored, failure };
  }
  return { stored, failure: undefined };
}

/** A mistake the operator can fix: printed as one message, with exit code 1, never as a stack trace. */
export class OperatorError extends Error {
  override name = "OperatorError";
}

/** Runs a command's body, printing expected failures plainly and unexpected ones in full. */
export function runCommand(main: () => Promise<void>, expected: readonly (new (...args: never[]) => Error)[] = []): void {
  main().catch((error: unknown) => {
    const plain = error instanceof ConfigError || error instanceof OperatorError || expected.some((kind) => error instanceof kind);
    console.error(plain ? (error as Error).message : error);
    process.exitCode = 1;
  });
}
