import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/healthz";
import { loadConfig } from "../../app/server/config.server";
import { agentRecord } from "../support/records";
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

  it("gives the bearer the process's memory and each held tab's share of it", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    const { store } = context.services;
    await store.refresh();
    for (let count = 0; count < 200; count++) await store.agents.insert(agentRecord({ bio: "Forty years selling homes. ".repeat(40) }));
    const details = (await healthz(context, { Authorization: `Bearer ${TOKEN}` })).body;
    const memory = details.memory as {
      rssMb: number;
      heapUsedMb: number;
      heapLimitMb: number;
      replicaTabs: { tab: string; records: number; residentMb: number }[];
    };
    expect(memory.heapLimitMb).toBeCloseTo(getHeapStatistics().heap_size_limit / 2 ** 20, 0);
    expect(memory.rssMb).toBeGreaterThan(memory.heapUsedMb);
    const agents = memory.replicaTabs.find((tab) => tab.tab === "Agents");
    // 200 bios of 1,040 characters are 0.2 MB alone.
    expect(agents).toMatchObject({ records: 200 });
    expect(agents!.residentMb).toBeGreaterThan(0.2);
    expect(agents!.residentMb).toBeLessThan(1);
    expect(memory.replicaTabs.find((tab) => tab.tab === "Messages")).toEqual({ tab: "Messages", records: 0, residentMb: 0 });
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
