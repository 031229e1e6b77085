import type { DriverRow, ReadRequest, TabSpec, WorkbookDriver } from "./driver.server";

/**
 * The staff tabs on the sheet or file, the high-volume tabs on PostgreSQL
 * (docs/decisions/0053): one driver to the replica, each call sent to the driver that
 * holds its tab. It is the staff driver to the rest of the app (its kind, structure and
 * cells), since those are what staff see.
 */
export function createSplitDriver(staff: WorkbookDriver, database: WorkbookDriver, databaseTabs: ReadonlySet<string>): WorkbookDriver {
  const driverOf = (tab: TabSpec) => (databaseTabs.has(tab.name) ? database : staff);

  async function readTabs(requests: readonly ReadRequest[]): Promise<DriverRow[][]> {
    const inDatabase = requests.map((request) => databaseTabs.has(request.tab.name));
    // A driver asked for no tab is not called: a read of the database's tabs alone (a claim's
    // read-back, another instance's change) costs the sheet no call of its quota.
    const readFrom = (driver: WorkbookDriver, asked: readonly ReadRequest[]) =>
      asked.length === 0 ? Promise.resolve([]) : driver.readTabs(asked);
    const [fromDatabase, fromStaff] = await Promise.all([
      readFrom(
        database,
        requests.filter((_, i) => inDatabase[i]),
      ),
      readFrom(
        staff,
        requests.filter((_, i) => !inDatabase[i]),
      ),
    ]);
    let d = 0;
    let s = 0;
    return inDatabase.map((isDatabase) => (isDatabase ? fromDatabase[d++] : fromStaff[s++]) ?? []);
  }

  return {
    kind: staff.kind,
    async ensureTabs(tabs) {
      await Promise.all([
        database.ensureTabs(tabs.filter((tab) => databaseTabs.has(tab.name))),
        staff.ensureTabs(tabs.filter((tab) => !databaseTabs.has(tab.name))),
      ]);
    },
    readTabs,
    appendRows: (tab, rows) => driverOf(tab).appendRows(tab, rows),
    updateRow: (tab, id, changes) => driverOf(tab).updateRow(tab, id, changes),
    deleteRows: (tab, ids) => driverOf(tab).deleteRows(tab, ids),
    ...(staff.mirrors ? { mirrors: staff.mirrors } : {}),
    ...(staff.structureProblems ? { structureProblems: () => staff.structureProblems!() } : {}),
    ...(staff.cellUsage ? { cellUsage: () => staff.cellUsage!() } : {}),
    // Without a token from the staff driver (Google's), every refresh reads the sheet anyway.
    ...(staff.changeToken && database.changeToken
      ? { changeToken: async () => `${await staff.changeToken!()}|${await database.changeToken!()}` }
      : {}),
    async close() {
      await Promise.all([staff.close(), database.close()]);
    },
  };
}
