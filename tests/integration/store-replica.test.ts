/** The replica's own rules, on the SQLite driver: single-flight refreshes, change checks, writes racing reads, the timer. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { Message, SendClaim } from "../../app/domain/workbook/tabs";
import type { WorkbookDriver } from "../../app/server/store/driver.server";
import { createReplica } from "../../app/server/store/replica.server";
import { createSqliteDriver } from "../../app/server/store/sqlite-driver.server";
import { newId, type RefreshEvent, type Store } from "../../app/server/store/store.server";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

/** A SQLite driver that counts its reads and can hold a read until released. */
function observedDriver() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "store-replica-")), "store.sqlite");
  const inner = createSqliteDriver(file);
  let hold: Promise<void> | undefined;
  const counts = { reads: 0 };
  const driver: WorkbookDriver = {
    ...inner,
    async readTabs(requests) {
      counts.reads += 1;
      const rows = await inner.readTabs(requests);
      await hold;
      return rows;
    },
  };
  const holdReads = () => {
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => {
      release = () => {
        hold = undefined;
        resolve();
      };
    });
    return release;
  };
  return { driver, file, counts, holdReads };
}

function open(driver: WorkbookDriver, log: { warn: (text: string) => void } = { warn: () => undefined }): Store {
  const store = createReplica(driver, { refreshSeconds: 0.05, log: { info: () => undefined, error: () => undefined, ...log } });
  opened.push(store);
  return store;
}

function message(text: string): Message {
  return {
    id: newId(),
    conversationId: "c-1",
    fromEmail: "a@example.com",
    toEmail: "b@example.com",
    text,
    createdAt: new Date().toISOString(),
  };
}

function claim(key: string): SendClaim {
  return { id: newId(), key, instance: "here", outcome: "claimed", note: "", claimedAt: new Date().toISOString() };
}

function insertFromElsewhere(file: string, text: string): void {
  const db = new Database(file);
  db.prepare(
    `INSERT INTO "Messages" (id, conversationId, fromEmail, toEmail, text, createdAt) VALUES (?, 'c-1', 'x@example.com', 'y@example.com', ?, ?)`,
  ).run(newId(), text, new Date().toISOString());
  db.close();
}

describe("replica", () => {
  it("says it is stale before the first load", () => {
    const store = open(observedDriver().driver);
    expect(store.health()).toMatchObject({ driver: "sqlite", lastRefreshAt: null, ageSeconds: null, stale: true, invalidRows: [] });
  });

  it("shares one read between refreshes asked for at the same time", async () => {
    const { driver, counts } = observedDriver();
    const store = open(driver);
    await Promise.all([store.refresh(), store.refresh(), store.refresh()]);
    expect(counts.reads).toBe(1);
  });

  it("reads SQLite again only when another connection changed the file", async () => {
    const { driver, file, counts } = observedDriver();
    const store = open(driver);
    await store.refresh();
    await store.messages.insert(message("written here"));
    await store.refresh();
    await store.refresh();
    expect(counts.reads).toBe(1);
    expect(store.health().stale).toBe(false);

    insertFromElsewhere(file, "written by the staff command");
    await store.refresh();
    expect(counts.reads).toBe(2);
    expect(store.messages.all().map((m) => m.text)).toEqual(["written here", "written by the staff command"]);
  });

  it("keeps a write acknowledged while a refresh was reading", async () => {
    const { driver, file, holdReads } = observedDriver();
    const store = open(driver);
    await store.refresh();
    insertFromElsewhere(file, "before");
    const release = holdReads();
    const refreshing = store.refresh();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const written = await store.messages.insert(message("during"));
    release();
    await refreshing;
    expect(store.messages.get(written.id)?.text).toBe("during");
    expect(
      store.messages
        .all()
        .map((m) => m.text)
        .sort(),
    ).toEqual(["before", "during"]);
  });

  it("does not bring back rows this process deleted while a refresh was reading, whether the read found them or a write it replays added them", async () => {
    const { driver, file, holdReads } = observedDriver();
    const store = open(driver);
    await store.refresh();
    const found = await store.sendClaims.insert(claim("read by the refresh"));
    insertFromElsewhere(file, "a change for the refresh to read");
    const release = holdReads();
    const refreshing = store.refresh();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const added = await store.sendClaims.insert(claim("written during the refresh"));
    expect(await store.sendClaims.removeStored([found.id, added.id])).toBe(2);
    release();
    await refreshing;
    expect(store.sendClaims.all()).toEqual([]);
    expect(store.sendClaims.by("key", "written during the refresh")).toEqual([]);
  });

  it("refreshes on its timer once started, and stops", async () => {
    const { driver, file } = observedDriver();
    const store = open(driver);
    await store.refresh();
    store.start();
    insertFromElsewhere(file, "from the timer");
    await expect.poll(() => store.messages.all().length, { timeout: 2000, interval: 20 }).toBe(1);
    await store.stop();
    await expect(store.refresh()).rejects.toThrow(/stopped/);
  });

  it("logs each invalid row once, with its tab, row and reason", async () => {
    const { driver, file } = observedDriver();
    const warnings: string[] = [];
    const store = open(driver, { warn: (text) => warnings.push(text) });
    await store.refresh();
    const db = new Database(file);
    db.prepare(
      `INSERT INTO "Requests" (id, requestType, agentEmail, createdAt) VALUES ('r-1', 'rental', 'a@example.com', '2025-01-01')`,
    ).run();
    await store.refresh();
    insertFromElsewhere(file, "another change, same invalid row");
    await store.refresh();
    db.close();
    expect(warnings).toEqual(["Store: Requests row 1 skipped: requestType must be one of referral, listing, buyer"]);
    expect(store.health().invalidRows).toEqual([
      { tab: "Requests", row: 1, reason: "requestType must be one of referral, listing, buyer" },
    ]);
  });

  it("keeps refreshing and running its other jobs when a job throws, and logs the failure", async () => {
    const { driver, file } = observedDriver();
    const errors: string[] = [];
    const store = createReplica(driver, {
      refreshSeconds: 0.05,
      log: { info: () => undefined, warn: () => undefined, error: (...parts: unknown[]) => void errors.push(parts.map(String).join(" ")) },
    });
    opened.push(store);
    await store.refresh();
    const seen: string[][] = [];
    store.addJob({
      name: "broken",
      watches: { messages: [] },
      run: async () => {
        throw new Error("job bug");
      },
    });
    const changedTabs = (event: RefreshEvent) =>
      Object.entries(event).flatMap(([name, tab]) => (tab.added.length + tab.changed.length + tab.removed.length > 0 ? [name] : []));
    const watcher = store.addJob({ name: "watcher", watches: { messages: [] }, run: async (event) => void seen.push(changedTabs(event)) });
    insertFromElsewhere(file, "one");
    await store.refresh();
    await expect.poll(() => seen).toEqual([["messages"]]);
    await watcher.stop();
    insertFromElsewhere(file, "two");
    await store.refresh();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([["messages"]]);
    expect(store.messages.all()).toHaveLength(2);
    expect(errors.some((line) => line.includes("the broken job failed") && line.includes("job bug"))).toBe(true);
  });
});

describe("jobs after refreshes", () => {
  it("runs every job after each timed refresh, with what the refreshes found since its last run", async () => {
    const { driver, file } = observedDriver();
    const store = open(driver);
    await store.refresh();
    const events: RefreshEvent[] = [];
    store.addJob({ name: "clock", run: async (event) => void events.push(event) });
    // A job that watches no tab waits for the timer, and is then given what an earlier refresh found.
    insertFromElsewhere(file, "one");
    await store.refresh();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual([]);
    store.start();
    await expect.poll(() => events.length).toBeGreaterThan(0);
    expect(events[0]!.messages.added.map((id) => store.messages.get(id)?.text)).toEqual(["one"]);
    await expect.poll(() => events.length).toBeGreaterThan(1);
    expect(events[1]!.messages.added).toEqual([]);
  });

  it("stop waits for the run in flight, tells it through its signal, and runs the job no more", async () => {
    const { driver, file } = observedDriver();
    const store = open(driver);
    await store.refresh();
    const steps: string[] = [];
    let finish = () => undefined as void;
    const job = store.addJob({
      name: "slow",
      watches: { messages: [] },
      run: async (_event, signal) => {
        steps.push("started");
        await new Promise<void>((resolve) => (finish = resolve));
        steps.push(signal.aborted ? "ended after the stop" : "ended");
      },
    });
    insertFromElsewhere(file, "one");
    await store.refresh();
    await expect.poll(() => steps).toEqual(["started"]);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(steps).toEqual(["started", "ended after the stop"]);
    insertFromElsewhere(file, "two");
    await store.refresh();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(steps).toEqual(["started", "ended after the stop"]);
  });

  it("a run still going at the stop wait is cut, and the log says so", async () => {
    const { driver, file } = observedDriver();
    const errors: string[] = [];
    const store = createReplica(driver, {
      refreshSeconds: 0.05,
      jobStopWaitSeconds: 0.05,
      log: { info: () => undefined, warn: () => undefined, error: (...parts: unknown[]) => void errors.push(parts.map(String).join(" ")) },
    });
    opened.push(store);
    await store.refresh();
    let started = false;
    store.addJob({
      name: "stuck",
      watches: { messages: [] },
      run: () => {
        started = true;
        return new Promise<void>(() => undefined);
      },
    });
    insertFromElsewhere(file, "one");
    await store.refresh();
    await expect.poll(() => started).toBe(true);
    await store.stop();
    expect(errors).toEqual(["Store: the stuck job was still running 0.05 s after the stop; its work in flight is cut."]);
  });
});

describe("indexes kept across writes", () => {
  function note(conversationId: string, fromEmail: string, text: string): Message {
    return { id: newId(), conversationId, fromEmail, toEmail: "b@example.com", text, createdAt: new Date().toISOString() };
  }

  it("a write updates only the buckets of the keys it touches; other buckets, and arrays readers hold, stay as they were", async () => {
    const { driver } = observedDriver();
    const store = open(driver);
    await store.refresh();
    const first = await store.messages.insert(note("c-1", "a@example.com", "one"));
    await store.messages.insert(note("c-2", "c@example.com", "two"));
    const c1 = store.messages.by("conversationId", "c-1");
    const fromC = store.messages.by("fromEmail", "c@example.com");

    const third = await store.messages.insert(note("c-1", "a@example.com", "three"));

    // Not rebuilt: the untouched key's bucket is the very array read before the write.
    expect(store.messages.by("fromEmail", "c@example.com")).toBe(fromC);
    expect(store.messages.by("conversationId", "c-1").map((m) => m.text)).toEqual(["one", "three"]);
    expect(c1.map((m) => m.text)).toEqual(["one"]);
    expect(store.messages.by("fromEmail", "A@example.com ")).toEqual([first, third]);
    expect(store.messages.all()).toHaveLength(3);
  });

  it("an update moves the record between buckets when its key changes, and replaces it where it stays", async () => {
    const { driver } = observedDriver();
    const store = open(driver);
    await store.refresh();
    const saved = await store.conversationMembers.insert({
      id: "c-1/a@example.com",
      conversationId: "c-1",
      agentEmail: "a@example.com",
      lastReadAt: undefined,
      lastNotifiedAt: undefined,
    });
    expect(store.conversationMembers.by("conversationId", "c-1")).toEqual([saved]);

    const read = await store.conversationMembers.update(saved.id, { lastReadAt: new Date().toISOString() });
    expect(store.conversationMembers.by("conversationId", "c-1")).toEqual([read]);
    expect(store.conversationMembers.by("agentEmail", "a@example.com")).toEqual([read]);

    const moved = await store.conversationMembers.update(saved.id, { conversationId: "c-9" });
    expect(store.conversationMembers.by("conversationId", "c-1")).toEqual([]);
    expect(store.conversationMembers.by("conversationId", "c-9")).toEqual([moved]);
  });
});

describe("changes since a version", () => {
  it("lists the records this process wrote, and says it does not know once a refresh found changes made elsewhere", async () => {
    const { driver, file } = observedDriver();
    const store = open(driver);
    await store.refresh();
    const start = store.messages.version();
    const first = await store.messages.insert(message("one"));
    const second = await store.messages.insert(message("two"));
    expect(store.messages.changedSince(start)).toEqual([first.id, second.id]);
    expect(store.messages.changedSince(store.messages.version())).toEqual([]);

    const beforeRefresh = store.messages.version();
    insertFromElsewhere(file, "from a staff script");
    await store.refresh();
    expect(store.messages.changedSince(beforeRefresh)).toBeNull();
    expect(store.messages.changedSince(start)).toBeNull();
  });
});
