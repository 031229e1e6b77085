import type pg from "pg";
import type { RowCells } from "~/domain/workbook/rows";
import { WORKBOOK, type TabKey } from "~/domain/workbook/tabs";
import type { DriverRow, ReadRequest, TabSpec, WorkbookDriver } from "../driver.server";
import { describeError } from "../types.server";
import { withClient, type Database } from "./database.server";
import { migrate, readMigrations } from "./migrations.server";

/**
 * The tabs members write and staff do not edit by hand, kept in PostgreSQL when
 * `DATABASE_URL` is set (docs/decisions/0053); every other tab stays in the sheet or file.
 */
export const HIGH_VOLUME_TAB_KEYS = [
  "messages",
  "conversationMembers",
  "marks",
  "referralEvents",
  "sendClaims",
  "reviews",
  "invitations",
  "brokerSignoffs",
] as const satisfies readonly TabKey[];

/**
 * Of those, the tabs that grow with conversation, without bound: never held in the replica,
 * read by query (app/server/messages/message-queries.server.ts). The others grow with the
 * requests and referrals, as the staff tabs do, and stay in the replica (docs/decisions/0053).
 */
export const QUERIED_TAB_KEYS: ReadonlySet<TabKey> = new Set(["messages", "conversationMembers"]);

/** Their tab names, which are their tables' names. */
export const HIGH_VOLUME_TAB_NAMES: ReadonlySet<string> = new Set(HIGH_VOLUME_TAB_KEYS.map((name) => WORKBOOK[name].name));

/**
 * What an insert does with a row whose id is stored already. Mostly the same write sent
 * again (its answer was lost, or another instance sent it): nothing. Two instances that
 * each add a member's read position for a conversation make one row keeping the later
 * times, as the replica merges two such rows in a sheet.
 */
const ON_CONFLICT: Readonly<Record<string, string>> = {
  ConversationMembers: `DO UPDATE SET
    "lastReadAt" = GREATEST("ConversationMembers"."lastReadAt", EXCLUDED."lastReadAt"),
    "lastNotifiedAt" = GREATEST("ConversationMembers"."lastNotifiedAt", EXCLUDED."lastNotifiedAt")`,
};

/** The database could not be prepared at start-up (unreachable, refused the login, a migration failed). */
export class DatabaseStartError extends Error {
  override name = "DatabaseStartError";
  constructor(cause: unknown) {
    super(
      `the database (DATABASE_URL) refused: ${describeError(cause)}. Check DATABASE_URL, and that PostgreSQL is running and reachable`,
      {
        cause,
      },
    );
  }
}

/** PostgreSQL refused a row because a unique key holds its value already (a send-once claim taken). */
export function isDuplicateKey(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Identifiers are the tabs' and headers' own names, quoted so case and spelling are kept. */
function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

type Queryable = Pick<pg.PoolClient, "query">;

/** Runs `work` in one transaction on one connection: the tables' notifications go out when it commits, and not at all when it fails. */
function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (client) => {
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Names this process in the notifications of the transaction's writes (the tables' triggers
 * read it, migration 0002), so its own replica, which has the rows already, skips them.
 */
async function signWrites(client: Queryable, instanceId: string): Promise<void> {
  await client.query("SELECT set_config('app.instance', $1, true)", [instanceId]);
}

/**
 * Inserts rows, one array parameter per column, in one statement however many rows there
 * are; resolves with how many were inserted or merged (not those skipped as stored already).
 */
async function insertRows(client: Queryable, tab: TabSpec, rows: readonly RowCells[]): Promise<number> {
  if (rows.length === 0) return 0;
  const headers = tab.headers;
  const columns = headers.map(quote).join(", ");
  const arrays = headers.map((_, i) => `$${i + 1}::text[]`).join(", ");
  const result = await client.query(
    `INSERT INTO ${quote(tab.name)} (${columns}) SELECT * FROM unnest(${arrays})
     ON CONFLICT ("id") ${ON_CONFLICT[tab.name] ?? "DO NOTHING"}`,
    headers.map((header) => rows.map((row) => row[header] ?? "")),
  );
  return result.rowCount ?? 0;
}

/** The tab's rows from its `from`th on, in the order they were added. */
async function readRows(client: Queryable, request: ReadRequest): Promise<DriverRow[]> {
  const { tab, from } = request;
  // Ordered by the table's number, not the text it is selected as ("10" would come before "2").
  const result = await client.query<Record<string, string>>(
    `SELECT "rowNumber"::text AS "rowNumber", ${tab.headers.map(quote).join(", ")} FROM ${quote(tab.name)}
     ORDER BY ${quote(tab.name)}."rowNumber" OFFSET $1`,
    [from],
  );
  return result.rows.map(({ rowNumber, ...cells }) => ({ rowNumber: Number(rowNumber), cells }));
}

/**
 * The high-volume tabs as PostgreSQL tables: the same surface as the sheet and the file, so
 * the replica and the store contract stay one. The tables are the migrations' (applied by
 * `ensureTabs`), never made from the tabs' definitions: a tab whose header has no column
 * is refused until a migration adds it. Every write notifies the other instances.
 */
export function createPostgresDriver(database: Database): WorkbookDriver {
  const { pool } = database;

  /** Said as the start-up error: the operator's next step is the URL or the server, not the sheet. */
  async function ensureTabs(tabs: readonly TabSpec[]): Promise<void> {
    try {
      await migrateAndCheck(tabs);
    } catch (error) {
      throw new DatabaseStartError(error);
    }
  }

  async function migrateAndCheck(tabs: readonly TabSpec[]): Promise<void> {
    await migrate(pool, await readMigrations());
    await database.listen();
    const result = await pool.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1)`,
      [tabs.map((tab) => tab.name)],
    );
    const present = new Set(result.rows.map((row) => `${row.table_name}\n${row.column_name}`));
    const missing = tabs.flatMap((tab) =>
      tab.headers.filter((header) => !present.has(`${tab.name}\n${header}`)).map((h) => `${tab.name}.${h}`),
    );
    if (missing.length > 0) throw new Error(`The database has no column ${missing.join(", ")}: a migration is missing`);
  }

  return {
    kind: "postgres",
    ensureTabs,
    // One snapshot for all the tabs read together, as the file's one transaction gives.
    readTabs: (requests) =>
      inTransaction(pool, async (client) => {
        await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const results: DriverRow[][] = [];
        for (const request of requests) results.push(await readRows(client, request));
        return results;
      }),
    appendRows: (tab, rows) =>
      inTransaction(pool, async (client) => {
        await signWrites(client, database.instanceId);
        await insertRows(client, tab, rows);
      }),
    updateRow: (tab, id, changes) =>
      inTransaction(pool, async (client) => {
        await signWrites(client, database.instanceId);
        const headers = Object.keys(changes);
        const assignments = headers.map((header, i) => `${quote(header)} = $${i + 2}`).join(", ");
        const result = await client.query(`UPDATE ${quote(tab.name)} SET ${assignments} WHERE "id" = $1`, [
          id,
          ...headers.map((header) => changes[header] ?? ""),
        ]);
        return (result.rowCount ?? 0) > 0;
      }),
    deleteRows: (tab, ids) =>
      inTransaction(pool, async (client) => {
        await signWrites(client, database.instanceId);
        const result = await client.query(`DELETE FROM ${quote(tab.name)} WHERE "id" = ANY($1)`, [[...ids]]);
        return result.rowCount ?? 0;
      }),
    /**
     * Changes once a write has committed since the last call (the first transaction id not yet
     * given out has moved on), and whenever the listener heard of one; while nobody listens,
     * every call differs, so every refresh reads. A write still in flight at a refresh is read
     * when its notification comes.
     */
    async changeToken() {
      const heard = database.changeCount();
      if (heard === null) return `unheard:${Date.now()}`;
      const { rows } = await pool.query<{ next: string }>("SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next");
      return `${rows[0]?.next ?? ""}:${heard}`;
    },
    close: () => database.close(),
  };
}
