/**
 * How fast the production server answers a directory search on a large network: a
 * temporary SQLite store with 5,000 approved agents, the production build on it, then
 * concurrent requests for a filtered, searched third page of the directory and, for
 * comparison, the same server's `/healthz`. Prints requests per second and latency
 * percentiles for both, and on Linux the server's CPU time per request, which other
 * work on a busy machine disturbs less. A benchmark, not a test: the figures depend on
 * the machine.
 *
 *   npm run bench:directory
 *   npm run bench:directory -- --skip-build --connections 64 --seconds 20
 *
 * Options: --agents N (5000), --connections N (concurrent requests, 32), --seconds N
 * (measured time per address, 10), --warmup N (seconds, 2), --query TEXT (the search,
 * "san"), --skip-build (use the existing build/), --port N (0: any free port).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { seededRandom } from "../app/domain/demo-network";
import { SPECIALTIES } from "../app/domain/enums";
import { serialiseRecord, WORKBOOK, type Agent, type MembershipType } from "../app/domain/workbook";
import { createSqliteDriver } from "../app/server/store/sqlite-driver.server";

const { values: args } = parseArgs({
  options: {
    agents: { type: "string", default: "5000" },
    connections: { type: "string", default: "32" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    query: { type: "string", default: "san" },
    "skip-build": { type: "boolean", default: false },
    port: { type: "string", default: "0" },
  },
});
const agentCount = positiveNumber("agents", args.agents);
const connections = positiveNumber("connections", args.connections);
const seconds = positiveNumber("seconds", args.seconds);
const warmupSeconds = Number(args.warmup);

function positiveNumber(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`--${name} must be a positive number, not ${value}`);
  return number;
}

// ---------------------------------------------------------------------------
// A network of agents

const FIRST_NAMES = [
  "James", "Maria", "Robert", "Sandra", "Michael", "Linda", "David", "Ana", "William", "Elizabeth", "José", "Jennifer",
  "Richard", "Sofía", "Thomas", "Karen", "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Sarah",
  "Steven", "Sancha", "Paul", "Emily", "Andrew", "Michelle", "Joshua", "Zoë", "Kevin", "Dorothy", "Brian", "Renée",
];
const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "García", "Miller", "Davis", "Rodríguez", "Martínez", "Hernández",
  "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Pérez", "Sanders",
  "Thompson", "White", "Harris", "Sánchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King",
];
const PLACES: Record<"TX" | "OK", readonly string[]> = {
  TX: ["Dallas", "Austin", "Houston", "San Antonio", "Fort Worth", "El Paso", "Plano", "Lubbock", "Amarillo", "Waco", "San Marcos", "Denton"],
  OK: ["Oklahoma City", "Tulsa", "Norman", "Broken Arrow", "Edmond", "Lawton", "Stillwater", "Enid", "Sand Springs", "Ardmore"],
};
const BROKERAGES = [
  "Lone Star Realty", "Red River Homes", "Prairie Partners", "Hill Country Properties", "Sooner Realty Group",
  "Gulf Coast Brokers", "Panhandle Land Co.", "Crossroads Real Estate", "Bluebonnet Realty", "Redbud Realty",
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function benchAgents(count: number): Agent[] {
  const random = seededRandom(20_261_121);
  return Array.from({ length: count }, (_, i) => {
    const state = i % 2 === 0 ? "TX" : "OK";
    const fullName = `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`;
    const specialties = SPECIALTIES.filter(() => random() < 0.25);
    const membershipType: MembershipType = i < 100 ? "founder" : i % 17 === 0 ? "vip" : "member";
    return {
      id: `bench-${i}`,
      fullName,
      email: `agent${i}@bench.example.com`,
      phone: `(${state === "TX" ? 214 : 405}) 555-${String(1000 + (i % 9000)).padStart(4, "0")}`,
      state,
      city: pick(random, PLACES[state]),
      zipCode: "",
      licenseNumber: String(500000 + i),
      licenseState: state,
      licenseExpiration: "2027-12-31",
      brokerage: pick(random, BROKERAGES),
      brokerEmail: "",
      specialties: specialties.length > 0 ? specialties : ["Residential"],
      bio: `${fullName.split(" ")[0]} has helped buyers and sellers for ${3 + (i % 20)} years.`,
      photoUrl: "",
      membershipType,
      vipCode: "",
      status: "approved",
      statusNote: "",
      passwordHash: "",
      createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    };
  });
}

async function createStoreFile(dataDir: string, count: number): Promise<void> {
  const driver = createSqliteDriver(path.join(dataDir, "store.sqlite"));
  await driver.ensureTabs(Object.values(WORKBOOK));
  await driver.appendRows(WORKBOOK.agents, benchAgents(count).map((agent) => serialiseRecord(WORKBOOK.agents, agent)));
  await driver.close();
}

// ---------------------------------------------------------------------------
// The server

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("No port"))));
    });
  });
}

function startServer(dataDir: string, port: number): ChildProcess {
  // The production entry in one process, so stopping it stops the server.
  return spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      SESSION_SECRET: randomBytes(32).toString("hex"),
      APP_URL: `http://127.0.0.1:${port}`,
      LOG_REQUESTS: "off",
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

async function waitUntilUp(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    const ok = await fetch(`${base}/healthz`).then((response) => response.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("The server did not answer /healthz within 60 s");
}

/** The server process's CPU time so far in milliseconds, from /proc; null where there is no /proc. */
function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond();
  } catch {
    return null;
  }
}

let ticks: number | undefined;
function clockTicksPerSecond(): number {
  ticks ??= Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  return ticks;
}

// ---------------------------------------------------------------------------
// The load

type Run = { requests: number; failures: number; latenciesMs: number[]; elapsedMs: number };

/** `connections` loops, each sending its next request as soon as the last one's body arrived. */
async function load(url: string, durationMs: number): Promise<Run> {
  const latenciesMs: number[] = [];
  let failures = 0;
  const started = performance.now();
  const end = started + durationMs;
  async function loop(): Promise<void> {
    while (performance.now() < end) {
      const sent = performance.now();
      try {
        const response = await fetch(url);
        await response.arrayBuffer();
        if (response.status !== 200) failures += 1;
      } catch {
        failures += 1;
      }
      latenciesMs.push(performance.now() - sent);
    }
  }
  await Promise.all(Array.from({ length: connections }, loop));
  return { requests: latenciesMs.length, failures, latenciesMs, elapsedMs: performance.now() - started };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(label: string, url: string, serverPid: number | undefined): Promise<void> {
  if (warmupSeconds > 0) await load(url, warmupSeconds * 1000);
  const cpuBefore = cpuMsOf(serverPid);
  const run = await load(url, seconds * 1000);
  const cpuAfter = cpuMsOf(serverPid);
  const cpu = cpuBefore === null || cpuAfter === null ? "" : `   server CPU ${((cpuAfter - cpuBefore) / run.requests).toFixed(2)} ms/request`;
  const sorted = [...run.latenciesMs].sort((a, b) => a - b);
  const rps = run.requests / (run.elapsedMs / 1000);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `${label.padEnd(10)} ${rps.toFixed(0).padStart(6)} req/s   p50 ${ms(percentile(sorted, 50))}   p99 ${ms(percentile(sorted, 99))}   max ${ms(sorted.at(-1) ?? Number.NaN)}   ` +
      `(${run.requests} requests, ${run.failures} failed)${cpu}`,
  );
  if (run.failures > 0) process.exitCode = 1;
}

async function main(): Promise<void> {
  if (!args["skip-build"]) {
    console.log("Building the app (npx remix vite:build)...");
    const build = spawnSync("npx", ["remix", "vite:build"], { stdio: ["ignore", "ignore", "inherit"] });
    if (build.status !== 0) throw new Error("The build failed");
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-directory-"));
  await createStoreFile(dataDir, agentCount);
  const port = args.port === "0" ? await freePort() : positiveNumber("port", args.port);
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(dataDir, port);
  try {
    await waitUntilUp(base, server);
    const search = `/directory?${new URLSearchParams({ q: args.query, state: "TX", page: "3" })}`;
    const check = await fetch(base + search).then((response) => response.text());
    const shown = /Showing (\d+) of (\d+) agents/.exec(check.replace(/<!-- -->/g, ""));
    if (!shown) throw new Error(`${search} did not answer with a result count`);
    console.log(`${agentCount} approved agents; ${search} matches ${shown[1]} of ${shown[2]}.`);
    console.log(`${connections} concurrent requests, ${warmupSeconds} s warm-up, ${seconds} s measured per address; Node ${process.version}.`);
    await measure("directory", base + search, server.pid);
    await measure("healthz", `${base}/healthz`, server.pid);
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
