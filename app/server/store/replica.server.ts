import { normaliseIndexKey, serialiseRecord } from "~/domain/workbook/rows";
import type { TabKeyIndex, TabKey, TabKeyRecord } from "~/domain/workbook/tabs";
import type { ReadRequest, StructureProblem, WorkbookDriver } from "./driver.server";
import type { LastGoodCopies } from "./last-good.server";
import { changedRows, type Changes } from "./refresh-event.server";
import { queriedTab } from "./queried-tab.server";
import { createRefreshLoop } from "./refresh-loop.server";
import { createTabVersions } from "./tab-versions.server";
import { residentSizesOf } from "./resident-size.server";
import { createReplicaWrites, type WriteLog } from "./replica-writes.server";
import {
  applyWrite,
  TAB_KEYS,
  emptyState,
  indexOf,
  listOf,
  problemKey,
  signature,
  skippedWith,
  stateFromFullRead,
  stateFromTailRead,
  tabOf,
  type AnyRecord,
  type AnyTab,
  type TabState,
} from "./tab-state.server";
import { describeError, type StoreTab, type DoubtfulValue, type InvalidRow, type Store, type StoreHealth } from "./types.server";

export type ReplicaOptions = {
  /** Seconds between refreshes once `start()` is called. */
  refreshSeconds: number;
  /** Append-only tabs are read whole at least this often, to notice rows staff deleted or moved. */
  fullReadEverySeconds?: number;
  log?: Pick<Console, "info" | "warn" | "error">;
  /** Where each tab's last good copy is kept, for a restart while a tab is degraded (docs/decisions/0034). */
  lastGood?: LastGoodCopies;
  /** How long stopping a job waits for its run in flight (docs/decisions/0037); the server's own deadline is 9 s. */
  jobStopWaitSeconds?: number;
  /**
   * Tabs never read into the replica: they are read by query where they are stored
   * (docs/decisions/0053). Their store tabs only add rows; a read of one throws.
   */
  queried?: ReadonlySet<TabKey>;
};

/** The replica: typed, indexed, in-memory tabs read synchronously, kept fresh from a driver. */
export function createReplica(driver: WorkbookDriver, options: ReplicaOptions): Store {
  const log = options.log ?? console;
  const refreshMs = options.refreshSeconds * 1000;
  const fullReadEveryMs = (options.fullReadEverySeconds ?? 300) * 1000;

  const queried = options.queried ?? new Set<TabKey>();
  /** The tabs the replica holds and refreshes. */
  const HELD = TAB_KEYS.filter((name) => !queried.has(name));
  const states = new Map<TabKey, TabState>(TAB_KEYS.map((name) => [name, emptyState()]));
  /** Per tab, bumped whenever its records change: lets caches built from a tab know they are stale. */
  const versions = createTabVersions();
  const writeLog: WriteLog = { seq: 0, writes: [] };
  let ready: Promise<void> | undefined;
  /** The full read that concurrent `refresh()` calls share. */
  let inflight: Promise<void> | undefined;
  /** Reads run one at a time, in the order asked: each changes the replica from what the one before left. */
  let reads: Promise<void> = Promise.resolve();
  /** The tabs the next partial read takes, and that read once queued. */
  let tabsToRead = new Set<TabKey>();
  let partialRead: Promise<void> | undefined;
  let loaded = false;
  let needFullRead = true;
  let lastFullReadAt = 0;
  let lastToken: string | undefined;
  let lastRefreshAt: number | null = null;
  let lastError: string | null = null;
  let loggedProblems = new Set<string>();
  /** Degraded tabs by tab name, as last reported by the driver. */
  let degraded = new Map<string, StructureProblem>();
  /** Degraded tabs served from the copy on disk since this process started, with when it was saved. */
  const servedFromDisk = new Map<string, string>();
  /** Per tab, the version whose copy is on disk. */
  const savedVersions = new Map<TabKey, number>();
  let closed = false;
  const loop = createRefreshLoop({ refresh, refreshMs, stopWaitMs: (options.jobStopWaitSeconds ?? 5) * 1000, log });

  const stateOf = (name: TabKey): TabState => states.get(name) ?? emptyState();

  function ensureReady(): Promise<void> {
    ready ??= driver.ensureTabs(TAB_KEYS.map(tabOf)).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  const { insert, insertOnce, update, readStored, readMark, readStoredAfter, removeStored } = createReplicaWrites({
    driver,
    log,
    stateOf,
    versions,
    writeLog,
    ensureReady,
    refuseIfDegraded,
  });

  // --- structure -------------------------------------------------------------

  function describeProblem(problem: StructureProblem): string {
    return `the ${problem.tab} tab cannot be read: ${problem.problem}. Fix: ${problem.fix}`;
  }

  /** Nothing is added to or changed in a degraded tab: a write there could land in the wrong place or make a wrong column. */
  function refuseIfDegraded(tab: AnyTab): void {
    noteStructure();
    const problem = degraded.get(tab.name);
    if (problem) throw new Error(describeProblem(problem));
  }

  /** Takes the driver's degraded tabs, logging each new one and each one fixed. */
  function noteStructure(): void {
    const current = new Map((driver.structureProblems?.() ?? []).map((problem) => [problem.tab, problem]));
    for (const [tab, problem] of current) {
      if (degraded.get(tab)?.problem !== problem.problem)
        log.error(`Store: ${describeProblem(problem)}. Its last good copy keeps serving; nothing is added to it until it is fixed.`);
    }
    for (const tab of degraded.keys()) if (!current.has(tab)) log.info(`Store: the ${tab} tab reads again.`);
    degraded = current;
  }

  // --- refresh -----------------------------------------------------------

  function markFresh(): void {
    lastRefreshAt = Date.now();
    lastError = null;
  }

  /** Each skipped row and each doubtful value once, when it first appears. */
  function logNewProblemRows(): void {
    const current = new Set<string>();
    const logOnce = (row: InvalidRow | DoubtfulValue, line: string) => {
      const key = problemKey(row);
      current.add(key);
      if (!loggedProblems.has(key)) log.warn(line);
    };
    for (const state of states.values()) {
      for (const row of state.invalid) logOnce(row, `Store: ${row.tab} row ${row.row} skipped: ${row.reason}`);
      for (const row of state.doubtful) logOnce(row, `Store: ${row.tab} row ${row.row} (id ${row.id}) needs a look: ${row.reason}`);
    }
    loggedProblems = current;
  }

  /**
   * Reads every tab, or only the tabs in `only` (a partial read, for another instance's
   * writes the database told of: it neither checks the change token nor counts as the
   * replica being fresh).
   */
  async function readAll(only?: ReadonlySet<TabKey>): Promise<void> {
    await ensureReady();
    // Before the first read, and while a full read is owed, a partial read is a full one.
    const partial = only !== undefined && loaded && !needFullRead;
    const token = !partial && driver.changeToken ? await driver.changeToken() : undefined;
    if (loaded && token !== undefined && token === lastToken) {
      markFresh();
      return;
    }
    const full = !partial && (!loaded || needFullRead || Date.now() - lastFullReadAt >= fullReadEveryMs);
    const names = partial ? HELD.filter((name) => only.has(name)) : HELD;
    const plans: ReadRequest[] = names.map((name) => {
      const tab = tabOf(name);
      const state = stateOf(name);
      const tail = !full && tab.appendOnly && state.rowsRead > 0;
      return { tab, from: tail ? state.rowsRead - 1 : 0 };
    });
    const seqAtRead = writeLog.seq;
    const results = await driver.readTabs(plans);
    noteStructure();
    const isDegraded = (i: number) => degraded.has(plans[i]!.tab.name);

    // A tail that no longer starts with the row last read means rows moved: read that tab whole.
    const moved = plans
      .map((plan, i) => ({ plan, i }))
      .filter(
        ({ plan, i }) =>
          plan.from > 0 && !isDegraded(i) && signature(plan.tab as AnyTab, results[i]?.[0]) !== stateOf(names[i]!).lastSignature,
      );
    if (moved.length > 0) {
      const reread = await driver.readTabs(moved.map(({ plan }) => ({ tab: plan.tab, from: 0 })));
      moved.forEach(({ i }, j) => {
        plans[i] = { tab: plans[i]!.tab, from: 0 };
        results[i] = reread[j] ?? [];
      });
    }

    const pending = writeLog.writes.filter((write) => write.seq > seqAtRead);
    const previous = new Map(states);
    names.forEach((name, i) => {
      const tab = tabOf(name);
      // A degraded tab keeps its last good copy (and the writes acknowledged on it).
      if (isDegraded(i)) return;
      servedFromDisk.delete(tab.name);
      const rows = results[i] ?? [];
      const next = plans[i]!.from === 0 ? stateFromFullRead(tab, rows) : stateFromTailRead(stateOf(name), tab, rows);
      for (const write of pending) if (write.name === name) applyWrite(next, write);
      states.set(name, next);
    });
    // The writes still pending are those after the read, and those to tabs it did not read.
    writeLog.writes = partial ? writeLog.writes.filter((write) => write.seq > seqAtRead || !only.has(write.name)) : pending;
    // Read with a tab degraded from the start: its copy from before the restart is all there is.
    if (!loaded) await restoreFromDisk(names.filter((_, i) => isDegraded(i)));

    const firstLoad = !loaded;
    if (!partial) {
      lastToken = token;
      // Once a degraded tab is fixed, it is read whole again.
      needFullRead = degraded.size > 0;
      if (full) lastFullReadAt = Date.now();
      loaded = true;
      markFresh();
    }
    logNewProblemRows();
    const found: Changes = new Map();
    for (const name of names) {
      const before = previous.get(name) ?? emptyState();
      if (before === stateOf(name)) continue;
      const rows = changedRows(before.records, stateOf(name).records);
      if (rows.size === 0) continue;
      versions.bump(name, null);
      found.set(name, rows);
    }
    // The first read is every job's starting point, not news.
    if (!firstLoad && found.size > 0) loop.found(found);
    await saveChangedCopies();
  }

  // --- the last good copy on disk ---------------------------------------------

  async function restoreFromDisk(names: readonly TabKey[]): Promise<void> {
    for (const name of names) {
      const tab = tabOf(name);
      const copy = await options.lastGood?.load(tab.name);
      if (!copy) {
        log.error(`Store: the ${tab.name} tab cannot be read and no last good copy of it is on disk: it serves nothing until it is fixed.`);
        continue;
      }
      states.set(name, stateFromFullRead(tab, copy.rows));
      servedFromDisk.set(tab.name, copy.savedAt);
      log.error(`Store: the ${tab.name} tab cannot be read; serving its last good copy, saved ${copy.savedAt}, until it is fixed.`);
    }
  }

  /** Saves each tab that reads and changed since its copy was saved: as records, one row each, in row order. */
  async function saveChangedCopies(): Promise<void> {
    const { lastGood } = options;
    if (!lastGood) return;
    const savedAt = new Date().toISOString();
    const saves = HELD.filter((name) => !degraded.has(tabOf(name).name) && savedVersions.get(name) !== versions.of(name)).map((name) => {
      const tab = tabOf(name);
      const state = stateOf(name);
      savedVersions.set(name, versions.of(name));
      const rows = listOf(state).map((record) => ({ rowNumber: state.rowOf.get(record.id) ?? 0, cells: serialiseRecord(tab, record) }));
      return lastGood.save({ tab: tab.name, savedAt, rows });
    });
    await Promise.all(saves);
  }

  /** Queues a read after those before it; `only` is asked when the read starts, so it takes what was asked until then. */
  function queueRead(only: () => ReadonlySet<TabKey> | undefined): Promise<void> {
    const read = reads.then(() => readAll(only()));
    reads = read.catch(() => undefined);
    return read;
  }

  function refreshTabs(names: readonly TabKey[]): Promise<void> {
    const held = names.filter((name) => !queried.has(name));
    // A tab read by query (a message sent on another instance) needs no read here at all.
    if (closed || held.length === 0) return partialRead ?? Promise.resolve();
    for (const name of held) tabsToRead.add(name);
    partialRead ??= queueRead(() => {
      const only = tabsToRead;
      tabsToRead = new Set();
      partialRead = undefined;
      return only;
    }).catch((error: unknown) => {
      log.error(`Store: reading what another instance wrote failed; the next refresh reads it: ${describeError(error)}`);
    });
    return partialRead;
  }

  function refresh(): Promise<void> {
    if (closed) return Promise.reject(new Error("The store is stopped"));
    inflight ??= queueRead(() => undefined)
      .catch((error: unknown) => {
        lastError = describeError(error);
        needFullRead = true;
        lastToken = undefined;
        // A first load's failure is its caller's to report: nothing can be served without it, and
        // the start-up prints it as its one line before it stops (docs/operator-guide.md).
        if (loaded) log.error(`Store: refresh failed, serving the last good copy: ${lastError}`);
        throw error;
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  }

  function health(): StoreHealth {
    const ageMs = lastRefreshAt === null ? null : Math.max(0, Date.now() - lastRefreshAt);
    return {
      driver: driver.kind,
      lastRefreshAt: lastRefreshAt === null ? null : new Date(lastRefreshAt).toISOString(),
      ageSeconds: ageMs === null ? null : Math.round(ageMs / 1000),
      stale: ageMs === null || ageMs > 3 * refreshMs,
      refreshSeconds: options.refreshSeconds,
      lastError,
      invalidRows: [...states.values()].flatMap((state) => state.invalid),
      doubtfulValues: [...states.values()].flatMap((state) => state.doubtful),
      degradedTabs: [...degraded.values()],
      servedFromDisk: [...servedFromDisk].map(([tab, savedAt]) => ({ tab, savedAt })),
      cells: driver.cellUsage?.() ?? null,
    };
  }

  const residentSizes = residentSizesOf(HELD, stateOf, versions);

  /**
   * One tab as the store holds it. The replica's state is generic over WORKBOOK, so its records
   * are typed here, once, from the tab's definition.
   */
  function storeTab<Name extends TabKey>(name: Name): StoreTab<TabKeyRecord<Name>, TabKeyIndex<Name>> {
    return queried.has(name) ? queriedTab(name, { driver, ensureReady, versions }) : heldTab(name);
  }

  function heldTab<Name extends TabKey>(name: Name): StoreTab<TabKeyRecord<Name>, TabKeyIndex<Name>> {
    type Row = TabKeyRecord<Name>;
    const rows = (records: readonly AnyRecord[]) => records as readonly unknown[] as readonly Row[];
    const tab = tabOf(name);
    return {
      tab: tab.name,
      all: () => rows(listOf(stateOf(name))),
      version: () => versions.of(name),
      changedSince: (version) => versions.changedSince(name, version),
      get: (id) => stateOf(name).records.get(id) as Row | undefined,
      by: (index: string, key) => rows(indexOf(stateOf(name), tab, index).get(normaliseIndexKey(key)) ?? []),
      insert: (record) => insert(name, record) as Promise<Row>,
      insertOnce: (record, { lookInStore }) => insertOnce(name, record, lookInStore) as Promise<Row>,
      update: (id, patch) => update(name, id, patch) as Promise<Row>,
      readStored: async () => rows(await readStored(name)),
      readMark: () => readMark(name),
      readStoredAfter: async (mark) => {
        const read = await readStoredAfter(name, mark);
        return { ...read, rows: rows(read.rows) };
      },
      removeStored: (ids) => removeStored(name, ids),
      skippedWith: (header, value) => skippedWith(stateOf(name), header, value),
    };
  }

  return {
    agents: storeTab("agents"),
    requests: storeTab("requests"),
    responses: storeTab("responses"),
    messages: storeTab("messages"),
    contact: storeTab("contact"),
    marks: storeTab("marks"),
    conversationMembers: storeTab("conversationMembers"),
    referrals: storeTab("referrals"),
    referralEvents: storeTab("referralEvents"),
    sendClaims: storeTab("sendClaims"),
    blocks: storeTab("blocks"),
    reports: storeTab("reports"),
    reviews: storeTab("reviews"),
    invitations: storeTab("invitations"),
    brokerSignoffs: storeTab("brokerSignoffs"),
    brokers: storeTab("brokers"),
    pushSubscriptions: storeTab("pushSubscriptions"),
    suppressions: storeTab("suppressions"),
    moderation: storeTab("moderation"),
    outreach: storeTab("outreach"),
    driver: driver.kind,
    mirrors: driver.mirrors ?? null,
    refresh,
    refreshTabs,
    health,
    residentSizes,
    addJob: (job) => loop.addJob(job),
    start() {
      if (!closed) loop.start();
    },
    async stop() {
      if (closed) return loop.stop();
      closed = true;
      await loop.stop();
      await reads;
      await driver.close();
    },
  };
}
