/**
 * The longest stall one write causes: measured in process on the replica the server
 * uses, as the time of the write (SQLite writes synchronously, so on a slow disk this is
 * I/O the event loop waits for) and of the first read that needs the changed indexes,
 * against the same read with nothing changed. Both run on the event loop, so this is
 * time every other request waits.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { conversationIdFor } from "../app/domain/conversation";
import { parseDirectoryQuery, searchDirectory } from "../app/server/directory/directory.server";
import { createReplicaServices } from "../app/server/service-lifecycle.server";
import { createReplica } from "../app/server/store/replica.server";
import { createSqliteDriver } from "../app/server/store/sqlite-driver.server";
import type { Store } from "../app/server/store/store.server";

/** The slowest of a few writes: the driver's write itself, and the first read after it (the replica's index work). */
export type Stall = { steadyReadMs: number; writeMs: number; readAfterWriteMs: number };
export type Stalls = { agentWrite: Stall; messageWrite: Stall };

const WRITES = 5;

function timed(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

async function worst(read: () => void, write: (i: number) => Promise<void>): Promise<Stall> {
  read();
  const stall: Stall = { steadyReadMs: 0, writeMs: 0, readAfterWriteMs: 0 };
  for (let i = 0; i < WRITES; i += 1) {
    stall.steadyReadMs = Math.max(stall.steadyReadMs, timed(read));
    const started = performance.now();
    await write(i);
    stall.writeMs = Math.max(stall.writeMs, performance.now() - started);
    stall.readAfterWriteMs = Math.max(stall.readAfterWriteMs, timed(read));
  }
  return stall;
}

export async function measureStalls(dataDir: string, memberEmail: string): Promise<Stalls> {
  const quiet = { info() {}, warn() {}, error: console.error };
  const store: Store = createReplica(createSqliteDriver(path.join(dataDir, "store.sqlite")), { refreshSeconds: 3600, log: quiet });
  await store.refresh();
  const services = createReplicaServices(store);
  try {
    const member = store.agents.by("email", memberEmail)[0];
    const other = store.agents.all()[1];
    if (!member || !other) throw new Error("The benchmark network has no member to write as");
    const search = parseDirectoryQuery(new URLSearchParams({ q: "san", state: "TX", page: "3" }));
    const agentWrite = await worst(
      () => void searchDirectory(services, search),
      async (i) => void (await store.agents.update(other.id, { bio: `Edited bio number ${i}` })),
    );
    const messageWrite = await worst(
      // The replica works the summaries out before its promise is returned: the read is timed whole.
      () => void services.messageQueries.summaries(member),
      async (i) =>
        void (await store.messages.insert({
          id: randomUUID(),
          conversationId: conversationIdFor(member.id, other.id),
          fromEmail: other.email,
          toEmail: member.email,
          text: `Message ${i} sent during the benchmark`,
          createdAt: new Date().toISOString(),
        })),
    );
    return { agentWrite, messageWrite };
  } finally {
    await store.stop();
  }
}
