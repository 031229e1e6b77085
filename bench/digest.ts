/**
 * `npm run bench:digest`: the weekly digest at the large network's size (5,000 agents, 2,000
 * requests, bench/large-network.ts) in a temporary SQLite store. Prints the CPU time of the
 * run's selection (which members get which requests) before decision 0039 (every request
 * filtered once per member, bench/digest-before.ts) and now (one pass grouped by market),
 * checks both select the same, then runs the whole job with a mailer that sends nothing and
 * prints how long the event loop was held (what a page served meanwhile would wait), at most.
 *
 *   npm run bench:digest
 *   npm run bench:digest -- --agents 1000 --requests 400 --live 150
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { digestWeekDue } from "../app/domain/digest";
import { loadConfig } from "../app/server/config.server";
import { scheduleWeeklyDigest, selectWeekDigests } from "../app/server/jobs/weekly-digest.server";
import { createNotifier } from "../app/server/notifier/notifier.server";
import { createSendClaims } from "../app/server/send-claims.server";
import { createStoreFromConfig } from "../app/server/store/store.server";
import { digestsPerMember } from "./digest-before";
import { LARGE_NETWORK, writeNetwork } from "./large-network";

const { values: args } = parseArgs({
  options: { agents: { type: "string" }, requests: { type: "string" }, live: { type: "string" } },
});
const size = {
  agents: Number(args.agents ?? LARGE_NETWORK.agents),
  requests: Number(args.requests ?? LARGE_NETWORK.requests),
  liveRequests: Number(args.live ?? LARGE_NETWORK.liveRequests),
  messages: 0,
  memberMessages: 0,
};
/** The selection is run this many times and the fastest kept: the first runs warm the code up. */
const RUNS = 3;

function cpuMsOf(work: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i += 1) {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-digest-"));
  try {
    const now = new Date();
    await writeNetwork(dataDir, size, "", now);
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, APP_URL: "http://127.0.0.1" });
    const store = createStoreFromConfig(config);
    await store.refresh();
    const week = digestWeekDue(now);
    const members = store.agents.by("status", "approved");
    const requests = store.requests.all();

    const before = cpuMsOf(() => digestsPerMember(members, requests, week, now));
    const after = cpuMsOf(() => selectWeekDigests(store, week, now));
    const old = new Map(digestsPerMember(members, requests, week, now).map((digest) => [digest.member.id, digest.requests]));
    const current = selectWeekDigests(store, week, now).digests;
    const same =
      old.size === current.length &&
      current.every(({ member, selection }) => {
        const wanted = old.get(member.id);
        return wanted?.length === selection.total && selection.requests.every((request, i) => request.id === wanted[i]?.id);
      });

    console.log(`The weekly digest at ${size.agents} agents and ${size.requests} requests (${size.liveRequests} live):`);
    console.log(`  ${current.length} members have a digest this week; both selections agree: ${same ? "yes" : "NO"}.`);
    console.log(`  Selection CPU time, before (each member filters every request): ${before.toFixed(1)} ms`);
    console.log(`  Selection CPU time, after (one pass grouped by market):          ${after.toFixed(1)} ms (budget < 1000 ms)`);

    const delay = monitorEventLoopDelay({ resolution: 5 });
    let mails = 0;
    const claims = createSendClaims({ store });
    const notifier = createNotifier({ driver: { driver: "outbox", send: async () => void (mails += 1) }, claims, config });
    const job = scheduleWeeklyDigest({
      store,
      notifier,
      claims,
      config,
      clock: () => now,
      log: { info: () => undefined, error: console.error },
    });
    delay.enable();
    const started = performance.now();
    const run = await job.run();
    const tookMs = performance.now() - started;
    delay.disable();
    await job.stop();
    await notifier.stop();
    await store.stop();
    console.log(
      `  The whole run (claims in SQLite, mail not sent): ${mails} mails in ${(tookMs / 1000).toFixed(1)} s; ran: ${run.ran}.`,
      `\n  Longest the event loop was held meanwhile (a page would wait this long at most): ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms.`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
