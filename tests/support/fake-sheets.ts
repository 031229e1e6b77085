import { afterAll, afterEach, beforeAll } from "vitest";
import { createReplica } from "../../app/server/store/replica.server";
import { createSheetsDriver } from "../../app/server/store/sheets-driver.server";
import { newId, type Store } from "../../app/server/store/store.server";
import { startFakeSheets, type FakeSheetsServer } from "../../scripts/lib/fake-sheets/server";

/**
 * One fake Sheets server for a test file: started before its tests; after each test its
 * faults are cleared and the stores the test opened (pushed to `opened`) are stopped; closed
 * after the last. `fake` stands for the server from the first test on (it is started in
 * `beforeAll`, after the file's top level has run).
 */
export function useFakeSheets(): { fake: FakeSheetsServer; opened: Store[] } {
  let server: FakeSheetsServer | undefined;
  const opened: Store[] = [];
  beforeAll(async () => {
    server = await startFakeSheets();
  });
  afterEach(async () => {
    server?.clearFaults();
    await Promise.all(opened.splice(0).map((store) => store.stop()));
  });
  afterAll(async () => {
    await server?.close();
  });
  const fake = new Proxy({} as FakeSheetsServer, {
    get(_, key) {
      if (!server) throw new Error("The fake Sheets server is used before its tests start");
      const value: unknown = Reflect.get(server, key);
      return typeof value === "function" ? value.bind(server) : value;
    },
  });
  return { fake, opened };
}

/** A quiet store on a new, empty spreadsheet of the fake, read once: what a script's run on Sheets starts from. */
export async function openSheetsStore(fake: FakeSheetsServer, idPrefix: string): Promise<{ store: Store; spreadsheetId: string }> {
  const spreadsheetId = `${idPrefix}-${newId()}`;
  fake.spreadsheet(spreadsheetId);
  const store = createReplica(createSheetsDriver({ spreadsheetId, credentials: { kind: "fixedToken" }, apiUrl: fake.url }), {
    refreshSeconds: 60,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  await store.refresh();
  return { store, spreadsheetId };
}
