import Database from "better-sqlite3";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/healthz";
import { testContext } from "../support/services";

async function health(context = testContext()) {
  const response = loader({ request: new Request("http://localhost/healthz"), context, params: {} });
  return (await response.json()) as { ok: boolean; store: Record<string, unknown> };
}

describe("/healthz", () => {
  it("names the store's driver and the replica's age, and lists rows that did not read", async () => {
    const context = testContext();
    const { store, config } = context.services;
    await store.refresh();
    const db = new Database(path.join(config.dataDir, "store.sqlite"));
    db.prepare(`INSERT INTO "Agents" (id, email, status, createdAt) VALUES ('a-1', 'dana@example.com', 'on hold', '2025-01-01')`).run();
    db.close();
    await store.refresh();
    const body = await health(context);
    expect(body.ok).toBe(true);
    expect(body.store).toMatchObject({
      driver: "sqlite",
      ageSeconds: 0,
      stale: false,
      lastError: null,
      invalidRows: [{ tab: "Agents", row: 1, reason: "status must be one of pending, approved, rejected" }],
    });
    expect(Date.parse(String(body.store.lastRefreshAt))).not.toBeNaN();
    await store.stop();
  });
});
