/**
 * `npm run bench:postgres`: the production build with the high-volume tabs in PostgreSQL,
 * at a base of 100,000 messages and at N, with the budgets of docs/product.md#performance-budgets marked met or missed
 * (printed, never asserted): start-up, memory after the page load, and how much slower the
 * member's conversation list and a thread are at N than at the base. Then several instances
 * on the one database, members sending through all of them at once: every message stored
 * once, every mail sent at most once per interval.
 *
 *   npm run bench:postgres -- --messages 1000000                  # about 3 minutes, and the build
 *   npm run bench:postgres -- --messages 10000000 --agents 10000 # the budgets' size
 *   npm run bench:postgres -- --database-url postgresql://... --skip-build
 *
 * Options: --messages (N, 1,000,000), --base (100,000), --agents (10,000), --member-messages
 * (1,000), --rounds (5), --seconds per run (5), --warmup (1), --connections (4), --instances
 * (4), --senders (40), --per-sender (10), --database-url (else a throwaway server), --skip-build.
 * A database given must hold no messages: the bench applies the migrations and fills it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import bcrypt from "bcryptjs";
import pg from "pg";
import { conversationIdFor } from "../app/domain/conversation";
import { migrate, readMigrations } from "../app/server/store/postgres/migrations.server";
import { logIn } from "../scripts/lib/built-server";
import { startPostgres, type PostgresServer } from "../scripts/lib/postgres-server";
import { sendThroughInstances, type SendFigures } from "./concurrent-sends";
import { benchAgents, BENCH_MEMBER_EMAIL, writeNetwork } from "./large-network";
import { load, weigh, type LoadResult } from "./measure";
import { loadMessages, messageCount } from "./postgres-network";
import { f1, f2, mark, median, table } from "./report";
import { rssMb, startApp, stopServer } from "./servers";

const { values: args } = parseArgs({
  options: {
    messages: { type: "string" },
    base: { type: "string" },
    agents: { type: "string" },
    "member-messages": { type: "string" },
    rounds: { type: "string" },
    seconds: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string" },
    instances: { type: "string" },
    senders: { type: "string" },
    "per-sender": { type: "string" },
    "database-url": { type: "string" },
    "heap-mb": { type: "string" },
    "skip-build": { type: "boolean", default: false },
  },
});

function numberArg(name: keyof typeof args, fallback: number): number {
  const raw = args[name];
  if (raw === undefined || typeof raw === "boolean") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, not ${raw}`);
  return value;
}

const messages = numberArg("messages", 1_000_000);
const baseMessages = Math.min(messages, numberArg("base", 100_000));
const network = {
  agents: numberArg("agents", 10_000),
  requests: 2_000,
  liveRequests: 640,
  messages,
  memberMessages: numberArg("member-messages", 1_000),
};
const rounds = numberArg("rounds", 5);
const seconds = numberArg("seconds", 5);
const warmupSeconds = numberArg("warmup", 1);
const connections = numberArg("connections", 4);
const instances = numberArg("instances", 4);
const senders = numberArg("senders", 40);
const perSender = numberArg("per-sender", 10);
const PASSWORD = "bench-member-password";
/**
 * A ceiling on the measured instance's V8 heap (`--max-old-space-size`), as an operator sets
 * one; 0 leaves the limits npm start chooses (scripts/start.mjs, decision 0077).
 */
const heapMb = numberArg("heap-mb", 0);

const BUDGET = { startupMs: 5_000, memoryMb: 300, ratio: 1.3 };

const PAGES = [
  { label: "/messages", path: "/messages" },
  { label: "/messages thread", path: `/messages?conversation=${encodeURIComponent(conversationIdFor("bench-0", "bench-1"))}` },
];

type PageFigures = { label: string; status: number; runs: LoadResult[]; p50Ms: number; cpuMsPerRequest: number };
type SizeFigures = { messages: number; startupMs: number; rssAfterStartMb: number; rssAfterLoadMb: number; pages: PageFigures[] };

function build(): void {
  if (args["skip-build"]) return;
  console.log("Building: npx remix vite:build");
  const result = spawnSync("npx", ["remix", "vite:build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error("npx remix vite:build failed");
}

/** One production instance on the store and database: start-up, memory, and the member's pages under load, round after round. */
async function measure(dataDir: string, databaseUrl: string, size: number): Promise<SizeFigures> {
  console.log(`Measuring at ${size.toLocaleString("en-US")} messages...`);
  const app = await startApp(dataDir, heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : [], { DATABASE_URL: databaseUrl });
  try {
    const rssAfterStartMb = rssMb(app);
    const cookie = await logIn(app.base, BENCH_MEMBER_EMAIL, PASSWORD);
    const statuses = await Promise.all(PAGES.map(async (page) => (await weigh(app, page.path, cookie)).status));
    const runs = PAGES.map((): LoadResult[] => []);
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, page] of PAGES.entries()) runs[i]!.push(await load(app, page.path, { connections, seconds, warmupSeconds, cookie }));
    }
    return {
      messages: size,
      startupMs: app.startupMs,
      rssAfterStartMb,
      rssAfterLoadMb: rssMb(app),
      pages: PAGES.map((page, i) => ({
        label: page.label,
        status: statuses[i]!,
        runs: runs[i]!,
        p50Ms: median(runs[i]!.map((run) => run.p50Ms)),
        cpuMsPerRequest: median(runs[i]!.map((run) => run.cpuMsPerRequest)),
      })),
    };
  } finally {
    await stopServer(app);
  }
}

function report(base: SizeFigures, full: SizeFigures, sends: SendFigures, loadSeconds: number): string {
  const out = [
    `Network: ${network.agents} agents, ${network.requests} requests in the staff file (SQLite); ${messages.toLocaleString("en-US")} messages in PostgreSQL (${network.memberMessages} the member's), loaded in ${f1(loadSeconds)} s.`,
    `${rounds} round(s) of ${seconds} s after ${warmupSeconds} s warm-up, ${connections} connections. Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}.`,
    `Measured instance's heap ceiling: ${heapMb > 0 ? `${heapMb} MB (--max-old-space-size)` : "the limits npm start chose"}.`,
    "",
  ];
  const rows = base.pages.map((page, i) => {
    const at = full.pages[i]!;
    const ratio = at.p50Ms / page.p50Ms;
    const failures = [...page.runs, ...at.runs].reduce((sum, run) => sum + run.errors + run.non2xx, 0);
    const notes =
      failures > 0 || page.status !== 200 || at.status !== 200 ? `, ${failures} failed, status ${page.status}/${at.status}` : "";
    return [
      page.label,
      f1(page.p50Ms),
      f1(at.p50Ms),
      f2(ratio),
      `${f2(page.cpuMsPerRequest)} / ${f2(at.cpuMsPerRequest)}`,
      `≤ ${BUDGET.ratio} ${mark(ratio <= BUDGET.ratio)}${notes}`,
    ];
  });
  out.push(
    "Median p50 latency over the rounds, at the base and at N messages (a member with the same conversations at both):",
    table(["page", `p50 ms at ${base.messages}`, `p50 ms at ${full.messages}`, "ratio", "CPU ms/req", "budget"], rows),
    "",
    table(
      ["at", "start-up ms", "RSS after start MB", "RSS after the load MB", "budgets"],
      [base, full].map((size) => [
        `${size.messages} messages`,
        f1(size.startupMs),
        f1(size.rssAfterStartMb),
        f1(size.rssAfterLoadMb),
        `start-up < ${BUDGET.startupMs} ms ${mark(size.startupMs < BUDGET.startupMs)}, RSS < ${BUDGET.memoryMb} MB ${mark(size.rssAfterLoadMb < BUDGET.memoryMb)}`,
      ]),
    ),
    "",
    `${sends.instances} instances on one database and one staff file, ${f1(sends.seconds)} s:`,
    `  messages sent                         ${sends.sent}`,
    `  acknowledged                          ${sends.acknowledged}`,
    `  not acknowledged                      ${sends.notAcknowledged}`,
    `  acknowledged but not stored (0)       ${sends.lost} ${mark(sends.lost === 0)}`,
    `  stored twice (0)                      ${sends.duplicates} ${mark(sends.duplicates === 0)}`,
    `  members × conversations written to    ${sends.notifiedPairs}`,
    `  message mails in the outbox           ${sends.mails} (message claims: ${sends.messageClaims})`,
    `  mails within one interval (0)         ${sends.mailsWithinInterval} ${mark(sends.mailsWithinInterval === 0)}`,
    `  members × conversations with no mail  ${sends.pairsWithoutMail}`,
    `  send-once keys claimed twice (0)      ${sends.keysClaimedTwice} ${mark(sends.keysClaimedTwice === 0)}`,
    `  clean stops on SIGTERM                ${sends.cleanStops ? "yes" : "no"}`,
  );
  return out.join("\n");
}

async function main(): Promise<void> {
  build();
  const given = args["database-url"];
  let server: PostgresServer | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-postgres-"));
  try {
    server = given === undefined ? await startPostgres() : undefined;
    const databaseUrl = given ?? (await server!.createDatabase());
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    try {
      const passwordHash = await bcrypt.hash(PASSWORD, 4);
      // The member and the senders can log in; the others have no password, as in large-network.ts.
      const agents = benchAgents(network.agents).map((agent, i) => (i <= senders ? { ...agent, passwordHash } : agent));
      await writeNetwork(dataDir, { ...network, messages: 0, memberMessages: 0 }, passwordHash, new Date(), agents);
      const shape = { agents, size: network, now: new Date() };
      const log = (line: string) => console.log(line);
      await migrate(pool, await readMigrations());
      if ((await messageCount(pool)) > 0) throw new Error("The database holds messages already: give the bench an empty one");
      const loadStarted = performance.now();
      console.log(`Loading ${baseMessages.toLocaleString("en-US")} messages...`);
      await loadMessages(pool, shape, { from: 0, to: baseMessages }, log);
      let loadSeconds = (performance.now() - loadStarted) / 1000;
      const base = await measure(dataDir, databaseUrl, baseMessages);
      const grown = performance.now();
      console.log(`Loading up to ${messages.toLocaleString("en-US")} messages...`);
      await loadMessages(pool, shape, { from: baseMessages, to: messages }, log);
      loadSeconds += (performance.now() - grown) / 1000;
      const full = await measure(dataDir, databaseUrl, messages);
      console.log("Sending through several instances...");
      const sends = await sendThroughInstances(pool, {
        dataDir,
        databaseUrl,
        instances,
        senders: agents.slice(1, senders + 1),
        perSender,
        password: PASSWORD,
        log,
      });
      console.log(`\n${report(base, full, sends, loadSeconds)}`);
      console.log("Figures from a shared, busy machine vary from run to run; the ratio compares runs taken minutes apart.");
    } finally {
      await pool.end();
    }
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
