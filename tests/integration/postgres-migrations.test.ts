import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { WORKBOOK } from "../../app/domain/workbook/tabs";
import { connectDatabase, type TableChanges } from "../../app/server/store/postgres/database.server";
import { HIGH_VOLUME_TAB_KEYS } from "../../app/server/store/postgres/driver.server";
import { migrate, readMigrations, type Migration } from "../../app/server/store/postgres/migrations.server";
import { usePostgres } from "../support/postgres";

const HIGH_VOLUME_DEFINITIONS = HIGH_VOLUME_TAB_KEYS.map((name) => WORKBOOK[name]);

describe("PostgreSQL migrations", () => {
  const postgres = usePostgres();
  const pools: pg.Pool[] = [];
  const openPool = async () => {
    const pool = new pg.Pool({ connectionString: await postgres.server().createDatabase() });
    pools.push(pool);
    return pool;
  };
  const poolOn = (pool: pg.Pool) => {
    const other = new pg.Pool({ connectionString: (pool.options as { connectionString: string }).connectionString });
    pools.push(other);
    return other;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });

  it("creates one table per high-volume tab with the tab's columns, once: a second run changes nothing", async () => {
    const pool = await openPool();
    const migrations = await readMigrations();
    expect(migrations.map((migration) => migration.version)).toEqual([1, 2, 3, 4]);

    expect(await migrate(pool, migrations)).toEqual([1, 2, 3, 4]);
    for (const tab of HIGH_VOLUME_DEFINITIONS) {
      const columns = await pool.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position",
        [tab.name],
      );
      expect(columns.rows.map((row) => row.column_name)).toEqual(["rowNumber", ...tab.headers]);
    }
    const recorded = await pool.query("SELECT version, name FROM schema_migrations");
    expect(recorded.rows).toEqual([
      { version: 1, name: "high-volume-tabs" },
      { version: 2, name: "change-notifications" },
      { version: 3, name: "messages-via" },
      { version: 4, name: "invitations-respond-by" },
    ]);

    expect(await migrate(pool, migrations)).toEqual([]);
    expect((await pool.query("SELECT count(*)::int AS n FROM schema_migrations")).rows[0].n).toBe(4);
  });

  it("applies each migration once when two instances start at once", async () => {
    const first = await openPool();
    const second = poolOn(first);
    const migrations = await readMigrations();
    const [a, b] = await Promise.all([migrate(first, migrations), migrate(second, migrations)]);
    expect([...a, ...b].sort()).toEqual([1, 2, 3, 4]);
    expect((await first.query("SELECT count(*)::int AS n FROM schema_migrations")).rows[0].n).toBe(4);
  });

  it("tells every listener, once committed, each statement's rows, who wrote them, and no rows when they are too many", async () => {
    const pool = await openPool();
    await migrate(pool, await readMigrations());
    const database = connectDatabase((pool.options as { connectionString: string }).connectionString, {
      info: () => undefined,
      error: () => undefined,
    });
    await database.listen();
    const told: TableChanges[] = [];
    database.onTableChanges((changes) => told.push(changes));
    const message = (id: string) => [id, "a--b", "ann@example.com", "bob@example.com", "Hello", "2026-11-27T12:00:00.000Z"];
    const insertMessage = `INSERT INTO "Messages" ("id", "conversationId", "fromEmail", "toEmail", "text", "createdAt") VALUES ($1, $2, $3, $4, $5, $6)`;

    // By this instance: the transaction names it. Nothing is told before the commit, nor of a rolled-back write.
    const client = await pool.connect();
    await client.query("BEGIN");
    await client.query("SELECT set_config('app.instance', $1, true)", [database.instanceId]);
    await client.query(insertMessage, message("m-1"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(told).toEqual([]);
    await client.query("COMMIT");
    await client.query("BEGIN");
    await client.query(insertMessage, message("m-rolled-back"));
    await client.query("ROLLBACK");
    client.release();
    // By a person with a database client: no instance named, so every instance reads it.
    await pool.query(`UPDATE "Marks" SET "status" = 'removed' WHERE false`);
    await pool.query(`INSERT INTO "Marks" ("id", "agentEmail") VALUES ('k-1', 'ann@example.com'), ('k-2', 'bob@example.com')`);
    await pool.query(`DELETE FROM "Marks" WHERE "id" = 'k-1'`);
    // A bulk statement whose ids do not fit in one notification.
    await pool.query(`INSERT INTO "SendClaims" ("id", "key") SELECT 'claim-' || n, 'key-' || n FROM generate_series(1, 1000) AS n`);

    await expect.poll(() => told.length).toBe(4);
    expect(told).toEqual([
      { table: "Messages", rows: [{ id: "m-1", conversationId: "a--b" }], local: true },
      { table: "Marks", rows: [{ id: "k-1" }, { id: "k-2" }], local: false },
      { table: "Marks", rows: [{ id: "k-1" }], local: false },
      { table: "SendClaims", rows: null, local: false },
    ]);
    await database.close();
  });

  it("keeps a failed migration whole out of the database, and refuses an applied one changed since", async () => {
    const pool = await openPool();
    const good: Migration = { version: 1, name: "one", sql: 'CREATE TABLE "One" ("id" text PRIMARY KEY);' };
    const broken: Migration = { version: 2, name: "two", sql: 'CREATE TABLE "Two" ("id" text PRIMARY KEY); SELECT no_such_function();' };
    await expect(migrate(pool, [good, broken])).rejects.toThrow(/Migration 2-two failed/);
    const tables = await pool.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE tablename IN ('One', 'Two')");
    expect(tables.rows.map((row) => row.tablename)).toEqual(["One"]);
    expect((await pool.query("SELECT version FROM schema_migrations")).rows).toEqual([{ version: 1 }]);

    const edited = { ...good, sql: 'CREATE TABLE "One" ("id" text PRIMARY KEY, "more" text);' };
    await expect(migrate(pool, [edited])).rejects.toThrow("Migration 1-one was changed after it was applied: add a new migration instead");
  });

  it("reads migrations in version order and refuses a file named otherwise", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "migrations-"));
    try {
      writeFileSync(path.join(folder, "0010-later.sql"), "SELECT 10;");
      writeFileSync(path.join(folder, "0002-earlier.sql"), "SELECT 2;");
      expect((await readMigrations(folder)).map(({ version, name }) => `${version}-${name}`)).toEqual(["2-earlier", "10-later"]);
      writeFileSync(path.join(folder, "third.sql"), "SELECT 3;");
      await expect(readMigrations(folder)).rejects.toThrow("Migration third.sql is not named <version>-<name>.sql");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
