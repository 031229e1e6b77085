import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate, readMigrations } from "../../app/server/store/postgres/migrations.server";
import { createPostgresClaims } from "../../app/server/store/postgres/send-claims.server";
import { usePostgres } from "../support/postgres";

const now = new Date("2026-11-27T15:00:00.000Z");

describe("send-once claims on PostgreSQL", () => {
  const postgres = usePostgres();
  let url: string;
  const pools: pg.Pool[] = [];
  /** Another app instance on the same database: its own pool and instance name. */
  const instance = (name: string) => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pools.push(pool);
    return { pool, claims: createPostgresClaims({ pool, instanceId: name }) };
  };
  beforeEach(async () => {
    url = await postgres.server().createDatabase();
    await migrate(instance("migrator").pool, await readMigrations());
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });

  it("gives each key to exactly one of two instances claiming at once", async () => {
    const [a, b] = [instance("a"), instance("b")];
    const keys = Array.from({ length: 40 }, (_, i) => `digest:2026-11-23:agent-${i}`);
    const claims = await Promise.all([
      ...keys.map((key) => a.claims.claim([key], now)),
      ...keys.map((key) => b.claims.claim([key], now)),
      a.claims.claim(keys, now),
      b.claims.claim(keys, now),
    ]);
    for (const key of keys) expect(claims.filter((won) => won.has(key))).toHaveLength(1);
    const rows = await a.pool.query<{ key: string; n: number }>(`SELECT "key", count(*)::int AS n FROM "SendClaims" GROUP BY "key"`);
    expect(rows.rows).toHaveLength(keys.length);
    expect(rows.rows.every((row) => row.n === 1)).toBe(true);
  });

  it("never gives a key claimed before, also after its send failed, and keeps the failure", async () => {
    const { pool, claims } = instance("a");
    expect(await claims.claim(["decision:agent-1:approved"], now)).toEqual(new Set(["decision:agent-1:approved"]));
    await claims.recordFailure("decision:agent-1:approved", new Error("SendGrid refused"), now);
    expect(await instance("b").claims.claim(["decision:agent-1:approved", "decision:agent-2:approved"], now)).toEqual(
      new Set(["decision:agent-2:approved"]),
    );
    const rows = await pool.query(
      `SELECT "outcome", "note", "instance" FROM "SendClaims" WHERE "key" = 'decision:agent-1:approved' ORDER BY "rowNumber"`,
    );
    expect(rows.rows).toEqual([
      { outcome: "claimed", note: "", instance: "a" },
      { outcome: "failed", note: "SendGrid refused", instance: "a" },
    ]);
  });

  it("lets the claim's own id win again on a retry, and no other id", async () => {
    const [a, b] = [instance("a"), instance("b")];
    expect(await a.claims.claimAs("agent:new@example.com", "claim-1", now)).toBe(true);
    expect(await a.claims.claimAs("agent:new@example.com", "claim-1", now)).toBe(true);
    expect(await b.claims.claimAs("agent:new@example.com", "claim-2", now)).toBe(false);
    const [first, second] = await Promise.all([a.claims.claimAs("mark:x", "claim-a", now), b.claims.claimAs("mark:x", "claim-b", now)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
  });

  it("finds a chain's next link through the claims of that subject only", async () => {
    const { claims } = instance("a");
    expect(await claims.nextInChain("message:c1/ann@example.com")).toBe("message:c1/ann@example.com#0");
    await claims.claim(
      ["message:c1/ann@example.com#0", "message:c1/ann@example.com#1", "message:c1/ann@example.com.au#7", "message:c1/bob@example.com#4"],
      now,
    );
    expect(await claims.nextInChain("message:c1/ann@example.com")).toBe("message:c1/ann@example.com#2");
    expect(await claims.nextInChain("message:c1/bob@example.com")).toBe("message:c1/bob@example.com#5");
  });
});
