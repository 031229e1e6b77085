import Database from "better-sqlite3";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/healthz";
import { testContext } from "../support/services";

const TOKEN = "operator-health-token-0123456789";

async function health(context: ReturnType<typeof testContext>) {
  const request = new Request("http://localhost/healthz", { headers: { Authorization: `Bearer ${TOKEN}` } });
  const response = loader({ request, context, params: {} });
  return (await response.json()) as { status: string; store: Record<string, unknown> };
}

describe("/healthz", () => {
  it("names the store's driver and the replica's age, and lists rows that did not read", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    const { store, config } = context.services;
    await store.refresh();
    const db = new Database(path.join(config.dataDir, "store.sqlite"));
    db.prepare(`INSERT INTO "Agents" (id, email, status, createdAt) VALUES ('a-1', 'dana@example.com', 'on hold', '2025-01-01')`).run();
    db.close();
    await store.refresh();
    const body = await health(context);
    expect(body.status).toBe("ok");
    expect(body.store).toMatchObject({
      driver: "sqlite",
      ageSeconds: 0,
      stale: false,
      lastError: null,
      invalidRows: [{ tab: "Agents", row: 1, reason: "status must be one of pending, approved, rejected, suspended" }],
    });
    expect(Date.parse(String(body.store.lastRefreshAt))).not.toBeNaN();
    await store.stop();
  });
});
