import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSendClaims } from "../../app/server/send-claims.server";
import { usePostgres } from "../support/postgres";
import { postgresDeployment } from "../support/postgres-store";

const now = new Date("2026-11-27T15:00:00.000Z");

describe("send-once claims on PostgreSQL", () => {
  const postgres = usePostgres();
  let url: string;
  let deployment: ReturnType<typeof postgresDeployment>;
  let database: pg.Pool;
  /** Another app instance on the same database: its own replica, connections and instance name. */
  const instance = async (name: string) => {
    const store = deployment.instance();
    await store.refresh();
    return createSendClaims({ store, uniqueKey: true, instanceId: name, log: { error: () => undefined } });
  };
  beforeEach(async () => {
    url = await postgres.server().createDatabase();
    deployment = postgresDeployment(url);
    database = new pg.Pool({ connectionString: url, max: 2 });
  });
  afterEach(async () => {
    await deployment.stopAll();
    await database.end();
  });

  it("gives each key to exactly one of two instances claiming at once", async () => {
    const [a, b] = await Promise.all([instance("a"), instance("b")]);
    const keys = Array.from({ length: 40 }, (_, i) => `digest:2026-11-23:agent-${i}`);
    const claims = await Promise.all([
      ...keys.map((key) => a.claim([key], now)),
      ...keys.map((key) => b.claim([key], now)),
      a.claim(keys, now),
      b.claim(keys, now),
    ]);
    for (const key of keys) expect(claims.filter((won) => won.has(key))).toHaveLength(1);
    const rows = await database.query<{ key: string; n: number }>(`SELECT "key", count(*)::int AS n FROM "SendClaims" GROUP BY "key"`);
    expect(rows.rows).toHaveLength(keys.length);
    expect(rows.rows.every((row) => row.n === 1)).toBe(true);
  });

  it("never gives a key claimed before, also after its send failed, and keeps the failure", async () => {
    const a = await instance("a");
    expect(await a.claim(["decision:agent-1:approved"], now)).toEqual(new Set(["decision:agent-1:approved"]));
    await a.recordFailure("decision:agent-1:approved", new Error("SendGrid refused"), now);
    const b = await instance("b");
    expect(await b.claim(["decision:agent-1:approved", "decision:agent-2:approved"], now)).toEqual(new Set(["decision:agent-2:approved"]));
    const rows = await database.query(
      `SELECT "outcome", "note", "instance" FROM "SendClaims" WHERE "key" = 'decision:agent-1:approved' ORDER BY "rowNumber"`,
    );
    expect(rows.rows).toEqual([
      { outcome: "claimed", note: "", instance: "a" },
      { outcome: "failed", note: "SendGrid refused", instance: "a" },
    ]);
  });

  it("lets the claim's own id win again on a retry, and no other id", async () => {
    const [a, b] = await Promise.all([instance("a"), instance("b")]);
    expect(await a.claimAs("agent:new@example.com", "claim-1", now)).toBe(true);
    expect(await a.claimAs("agent:new@example.com", "claim-1", now)).toBe(true);
    expect(await b.claimAs("agent:new@example.com", "claim-2", now)).toBe(false);
    // A retry from an instance whose replica has not seen the first answer yet wins again.
    expect(await (await instance("c")).claimAs("agent:new@example.com", "claim-1", now)).toBe(true);
    const [first, second] = await Promise.all([a.claimAs("mark:x", "claim-a", now), b.claimAs("mark:x", "claim-b", now)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
  });

  it("sends once when two instances send the same mail at once", async () => {
    const [a, b] = await Promise.all([instance("a"), instance("b")]);
    let sent = 0;
    const send = async () => void (sent += 1);
    const outcomes = await Promise.all([a.sendOnce("welcome:agent-9", now, send), b.sendOnce("welcome:agent-9", now, send)]);
    expect(outcomes.sort()).toEqual(["sent", "taken"]);
    expect(sent).toBe(1);
  });

  it("finds a chain's next link through the claims of that subject only", async () => {
    const a = await instance("a");
    expect(a.nextInChain("message:c1/ann@example.com")).toBe("message:c1/ann@example.com#0");
    await a.claim(
      ["message:c1/ann@example.com#0", "message:c1/ann@example.com#1", "message:c1/ann@example.com.au#7", "message:c1/bob@example.com#4"],
      now,
    );
    expect(a.nextInChain("message:c1/ann@example.com")).toBe("message:c1/ann@example.com#2");
    expect(a.nextInChain("message:c1/bob@example.com")).toBe("message:c1/bob@example.com#5");
  });
});
