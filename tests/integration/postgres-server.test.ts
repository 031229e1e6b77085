import pg from "pg";
import { describe, expect, it } from "vitest";
import { usePostgres } from "../support/postgres";

describe("the test PostgreSQL server", () => {
  const postgres = usePostgres();

  it("answers on its URL, and each new database starts empty and apart from the others", async () => {
    const [first, second] = [await postgres.server().createDatabase(), await postgres.server().createDatabase()];
    expect(first).not.toBe(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    try {
      await client.query("CREATE TABLE marker (id text PRIMARY KEY)");
      const version = await client.query<{ server_version: string }>("SHOW server_version");
      expect(version.rows[0]!.server_version).toMatch(/^\d+/);
    } finally {
      await client.end();
    }
    const other = new pg.Client({ connectionString: second });
    await other.connect();
    try {
      const tables = await other.query("SELECT 1 FROM pg_tables WHERE tablename = 'marker'");
      expect(tables.rowCount).toBe(0);
    } finally {
      await other.end();
    }
  });
});
