/** /healthz counts the spreadsheet's cells (rows × columns of every tab) against Google's 10 million limit. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader } from "../../app/routes/healthz";
import { GOOGLE_CELL_LIMIT, type CellUsage } from "../../app/server/store/driver.server";
import { newId } from "../../app/server/store/store.server";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";
import { testContext } from "../support/services";

const TOKEN = "operator-health-token-0123456789";
let fake: FakeSheetsServer;

beforeAll(async () => {
  fake = await startFakeSheets({ port: 0 });
});
afterAll(async () => {
  await fake.close();
});

async function healthCells(context: ReturnType<typeof testContext>): Promise<CellUsage | null> {
  const request = new Request("http://localhost/healthz", { headers: { Authorization: `Bearer ${TOKEN}` } });
  const body = (await loader({ request, context, params: {} }).json()) as { store: { cells: CellUsage | null } };
  return body.store.cells;
}

describe("cells used", () => {
  it("reports every tab's grid, the app's and staff's, against the limit", async () => {
    const spreadsheetId = `cells-${newId()}`;
    const book = fake.spreadsheet(spreadsheetId);
    book.addSheet("Notes", { rowCount: 50, columnCount: 4 });
    const context = testContext({}, { HEALTH_TOKEN: TOKEN, GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url });
    const { store } = context.services;
    try {
      await store.refresh();
      const cells = await healthCells(context);
      expect(cells).not.toBeNull();
      const tabs = new Map(cells!.tabs.map((tab) => [tab.tab, tab]));
      expect(tabs.get("Notes")).toEqual({ tab: "Notes", rows: 50, columns: 4, cells: 200 });
      // App tabs are created 1,000 rows deep and exactly as wide as their headers.
      const agentHeaders = book.rows("Agents")[0]!.length;
      expect(tabs.get("Agents")).toEqual({ tab: "Agents", rows: 1000, columns: agentHeaders, cells: 1000 * agentHeaders });
      expect(cells!.used).toBe(cells!.tabs.reduce((sum, tab) => sum + tab.rows * tab.columns, 0));
      expect(cells!.limit).toBe(GOOGLE_CELL_LIMIT);
      expect(cells!.percent).toBe(Math.round((cells!.used / GOOGLE_CELL_LIMIT) * 1000) / 10);
    } finally {
      await store.stop();
    }
  });

  it("is null on SQLite, which has no cell limit", async () => {
    const context = testContext({}, { HEALTH_TOKEN: TOKEN });
    await context.services.store.refresh();
    expect(await healthCells(context)).toBeNull();
    await context.services.store.stop();
  });
});
