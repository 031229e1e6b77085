import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/healthz";
import { loadConfig } from "../../app/server/config.server";
import { testContext } from "../support/services";

const TOKEN = "health-token-for-tests-0123456789";

async function healthz(context: ReturnType<typeof testContext>, headers: Record<string, string> = {}) {
  const response = await loader({ request: new Request("http://localhost/healthz", { headers }), context, params: {} });
  return {
    status: response.status,
    cacheControl: response.headers.get("Cache-Control"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe("/healthz details only with HEALTH_TOKEN", () => {
  it("tells a visitor only ok or degraded", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    await context.services.store.refresh();
    const answer = await healthz(context);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: "ok" });
    expect(answer.cacheControl).toBe("no-store");
  });

  it("says degraded, and nothing more, when the last refresh failed", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    const { store } = context.services;
    await store.refresh();
    const failing = { ...store, health: () => ({ ...store.health(), lastError: "Sheets answered 403 for spreadsheet 1AbCdEf" }) };
    const answer = await healthz({ ...context, services: { ...context.services, store: failing } });
    expect(answer.body).toEqual({ status: "degraded" });
    expect(JSON.stringify(answer.body)).not.toContain("1AbCdEf");
  });

  it("refuses a wrong or missing token the same way as none", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    await context.services.store.refresh();
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, "Bearer ", `Basic ${TOKEN}`]) {
      expect((await healthz(context, { Authorization: authorization })).body).toEqual({ status: "ok" });
    }
  });

  it("gives the driver, errors and invalid rows to the bearer of the token", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    await context.services.store.refresh();
    const answer = await healthz(context, { Authorization: `Bearer ${TOKEN}` });
    expect(answer.body).toMatchObject({
      status: "ok",
      env: "test",
      mail: "outbox",
      store: { driver: "sqlite", lastError: null, invalidRows: [] },
    });
  });

  it("never shows details when no token is configured", async () => {
    const context = testContext();
    await context.services.store.refresh();
    expect((await healthz(context, { Authorization: "Bearer " })).body).toEqual({ status: "ok" });
    expect((await healthz(context, { Authorization: "Bearer undefined" })).body).toEqual({ status: "ok" });
  });

  it("refuses a short HEALTH_TOKEN at start-up", () => {
    expect(() => loadConfig({ NODE_ENV: "test", DATA_DIR: testContext().services.config.dataDir, HEALTH_TOKEN: "short" })).toThrow(
      /HEALTH_TOKEN/,
    );
  });
});
