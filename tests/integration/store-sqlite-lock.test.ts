/**
 * Another process holding the SQLite file's write lock (a second app instance, staff in
 * the sqlite3 shell) delays a member's write while it is short; a lock held longer costs
 * only the writes that wait for it, never the pages, and never half a write.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { ActionFunctionArgs, AppLoadContext } from "@remix-run/node";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loader as healthLoader } from "../../app/routes/healthz";
import { action as postAction } from "../../app/routes/post-request";
import { action as editAction } from "../../app/routes/referral-requests.$id.edit";
import { action as markAction } from "../../app/routes/referral-requests.$id.mark";
import { action as respondAction } from "../../app/routes/referral-requests.$id.respond";
import { loader as requestsLoader } from "../../app/routes/referral-requests._index";
import { createReplica } from "../../app/server/store/replica.server";
import { createSqliteDriver, LOCK_WAIT_MS } from "../../app/server/store/sqlite-driver.server";
import type { Store } from "../../app/server/store/store.server";
import { get, insertRequest, outcome, post, sessionCookie, type Rejection } from "./requests-support";
import { requestRecord } from "../support/records";
import { insertAgent, testContext } from "../support/services";

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const owner = { email: "maria@example.com", fullName: "Maria Lopez" };
const HEALTH_TOKEN = "operator-health-token-0123456789";
const listing = {
  requestType: "listing",
  location: "Dallas",
  state: "TX",
  specialty: "Residential",
  priceRange: "$400k - $600k",
  listingAddress: "4182 Blue Sage Dr",
  listingMLS: "20581234",
  timeline: "2weeks",
  contactPreference: "email",
  description: "Four bedrooms, a pool and a new roof.",
};

/**
 * Starts another process that takes the write lock, writes a row, holds the lock for
 * `holdMs` (blocking, as a shell transaction left open would) and commits. Resolves
 * once the lock is held; `done` settles when the process has committed and exited.
 */
async function holdWriteLock(file: string, holdMs: number): Promise<{ done: Promise<number | null> }> {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(process.argv[1]);
    db.exec("BEGIN IMMEDIATE");
    db.prepare('INSERT INTO "Contact" ("id", "email", "createdAt") VALUES (?, ?, ?)').run("staff-" + process.pid, "staff@example.com", new Date().toISOString());
    process.stdout.write("locked\\n");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[2]));
    db.exec("COMMIT");
    db.close();
  `;
  const child = spawn(process.execPath, ["-e", script, file, String(holdMs)], { stdio: ["ignore", "pipe", "inherit"] });
  const done = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("locked")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`The lock holder exited (${code}) before taking the lock`)));
  });
  return { done };
}

describe("SQLite store under another process's write lock", () => {
  const stores: Store[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.stop()));
  });

  async function openStore(file: string): Promise<Store> {
    const store = createReplica(createSqliteDriver(file), { refreshSeconds: 60, log: quietLog });
    stores.push(store);
    await store.refresh();
    return store;
  }

  it("waits for the lock and then stores an insert and an update", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "referral-lock-")), "store.sqlite");
    const store = await openStore(file);
    const request = await store.requests.insert(requestRecord(owner));

    const first = await holdWriteLock(file, 300);
    const inserted = await store.requests.insert(requestRecord(owner, { title: "Written while staff held the lock" }));
    expect(await first.done).toBe(0);

    const second = await holdWriteLock(file, 300);
    await store.requests.update(request.id, { title: "Updated while staff held the lock" });
    expect(await second.done).toBe(0);

    const reader = await openStore(file);
    expect(reader.requests.get(inserted.id)?.title).toBe("Written while staff held the lock");
    expect(reader.requests.get(request.id)?.title).toBe("Updated while staff held the lock");
    // The lock holders' own rows were committed too.
    expect(reader.contact.all()).toHaveLength(2);
  });
});

/** True while some connection holds the file's write lock: a write transaction cannot begin without waiting. */
function writeLockIsHeld(file: string): boolean {
  const probe = new Database(file, { timeout: 0 });
  try {
    probe.exec("BEGIN IMMEDIATE");
    probe.exec("ROLLBACK");
    return false;
  } catch (error) {
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") return true;
    throw error;
  } finally {
    probe.close();
  }
}

/** A tab's rows as stored in the file, read past the app. */
function storedRows(file: string, table: string): Record<string, unknown>[] {
  const reader = new Database(file, { readonly: true });
  try {
    return reader.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
  } finally {
    reader.close();
  }
}

describe("the app while another process holds the SQLite write lock", () => {
  let context: AppLoadContext;
  afterEach(async () => {
    await context.services.store.stop();
    vi.restoreAllMocks();
  });

  it("keeps answering pages, refuses the waiting writes with 503 and the input kept, and writes again once the lock is gone", async () => {
    // The refused writes are logged for the operator; the test keeps the output quiet.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    context = testContext({}, { HEALTH_TOKEN: HEALTH_TOKEN });
    const file = path.join(context.services.config.dataDir, "store.sqlite");
    const maria = await insertAgent(context, { fullName: "Maria Lopez", email: "maria@example.com" });
    const james = await insertAgent(context, { fullName: "James Whitfield", email: "james@example.com" });
    const lucy = await insertAgent(context, { fullName: "Lucy Tran", email: "lucy@example.com" });
    const mariaCookie = await sessionCookie(context, maria);
    const jamesCookie = await sessionCookie(context, james);
    const lucyCookie = await sessionCookie(context, lucy);
    const request = await insertRequest(context, maria, { title: "Buyer relocating to Tulsa" });
    const id = request.id;
    const run = (action: (args: ActionFunctionArgs) => unknown, url: string, cookie: string, fields: Record<string, string>, params = {}) =>
      outcome(() => action({ request: post(url, cookie, fields), context, params }));

    // The replica has not read the file yet: its first read comes during the lock.
    expect(context.services.store.health().lastRefreshAt).toBeNull();
    // Held past the time a write waits for it, so every waiting write gives up while it is held.
    const lock = await holdWriteLock(file, LOCK_WAIT_MS + 3_000);
    let settledWrites = 0;
    const writes = Promise.all(
      [
        run(postAction, "/post-request?type=listing", mariaCookie, { ...listing, title: "Posted by Maria during the lock" }),
        run(postAction, "/post-request?type=listing", jamesCookie, { ...listing, title: "Posted by James during the lock" }),
        run(postAction, "/post-request?type=listing", lucyCookie, { ...listing, title: "Posted by Lucy during the lock" }),
        run(respondAction, `/referral-requests/${id}/respond`, jamesCookie, { message: "James can help" }, { id }),
        run(respondAction, `/referral-requests/${id}/respond`, lucyCookie, { message: "Lucy can help" }, { id }),
        run(editAction, `/referral-requests/${id}/edit`, mariaCookie, { ...listing, title: "Edited during the lock" }, { id }),
        run(markAction, `/referral-requests/${id}/mark`, jamesCookie, { kind: "saved", on: "true" }, { id }),
      ].map((answer) => answer.finally(() => (settledWrites += 1))),
    );
    // Time for the writes to reach the store and start waiting for the lock.
    await delay(100);

    // While the writes wait, a page, /healthz and the replica's refresh (its first read of the whole file) answer:
    // before any write has, and with the lock still held.
    const page = (await requestsLoader({ request: get("/referral-requests", jamesCookie), context, params: {} })).data as {
      requests: { title: string }[];
    };
    const health = healthLoader({
      request: new Request("http://localhost/healthz", { headers: { Authorization: `Bearer ${HEALTH_TOKEN}` } }),
      context,
      params: {},
    });
    await context.services.store.refresh();
    expect(settledWrites).toBe(0);
    expect(writeLockIsHeld(file)).toBe(true);
    expect(page.requests.map((card) => card.title)).toContain("Buyer relocating to Tulsa");
    expect(health.status).toBe(200);

    // Each waiting write gives up while the lock is held: 503 with the form's message and the input kept.
    const answers = await writes;
    expect(writeLockIsHeld(file)).toBe(true);
    const [mariaPost, jamesPost, lucyPost, jamesResponse, lucyResponse, edit, mark] = answers as Rejection[];
    for (const [answer, title] of [
      [mariaPost, "Posted by Maria during the lock"],
      [jamesPost, "Posted by James during the lock"],
      [lucyPost, "Posted by Lucy during the lock"],
    ] as const) {
      expect(answer?.init?.status).toBe(503);
      expect(answer?.data.error).toEqual({ "": ["Failed to post request. Please try again."] });
      expect(answer?.data.initialValue).toMatchObject({ title });
    }
    for (const [answer, message] of [
      [jamesResponse, "James can help"],
      [lucyResponse, "Lucy can help"],
    ] as const) {
      expect(answer?.init?.status).toBe(503);
      expect(answer?.data.error).toEqual({ "": ["Failed to send response. Please try again."] });
      expect(answer?.data.initialValue).toMatchObject({ message });
    }
    expect(edit?.init?.status).toBe(503);
    expect(edit?.data.error).toEqual({ "": ["Failed to update request. Please try again."] });
    expect(edit?.data.initialValue).toMatchObject({ title: "Edited during the lock" });
    const markAnswer = mark as unknown as Response;
    expect(markAnswer.status).toBe(503);
    expect(await markAnswer.json()).toEqual({ error: "Your choice could not be saved just now. Please try again in a moment." });

    // Nothing the refused writes carried reached the file; the lock holder's own row did.
    expect(await lock.done).toBe(0);
    expect(storedRows(file, "Requests").map((row) => row.title)).toEqual(["Buyer relocating to Tulsa"]);
    expect(storedRows(file, "Responses")).toEqual([]);
    expect(storedRows(file, "Marks")).toEqual([]);
    expect(storedRows(file, "Contact")).toHaveLength(1);

    // With the lock gone, the same write goes through.
    const retried = (await run(postAction, "/post-request?type=listing", mariaCookie, { ...listing, title: "Posted again" })) as Response;
    expect(storedRows(file, "Requests").map((row) => row.title)).toEqual(["Buyer relocating to Tulsa", "Posted again"]);
    const postedAgain = storedRows(file, "Requests").find((row) => row.title === "Posted again");
    expect(retried.headers.get("Location")).toBe(`/referral-requests/${postedAgain?.id}`);
  }, 30_000);
});
