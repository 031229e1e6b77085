/**
 * Another process holding the SQLite file's write lock (a second app instance, staff in
 * the sqlite3 shell) delays a member's write; it never costs it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createStore } from "../../app/server/store/replica.server";
import { createSqliteDriver } from "../../app/server/store/sqlite-driver.server";
import type { Store } from "../../app/server/store/store.server";
import { requestRecord } from "../support/records";

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const owner = { email: "maria@example.com", fullName: "Maria Lopez" };

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
    const store = createStore(createSqliteDriver(file), { refreshSeconds: 60, log: quietLog });
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
