/**
 * Starting the servers the benchmark loads, and reading their CPU time and memory from
 * /proc. No npm or npx wrapper: the app is start.mjs and the server it starts, the
 * baseline one process, so their CPU time is the servers' alone and stopping the process
 * started stops the server.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * The production entry, exactly what `npm start` ends up running (scripts/start.mjs):
 * the one place to change when the start command changes.
 */
export const PRODUCTION_COMMAND = { args: ["scripts/start.mjs"], env: { NODE_ENV: "production" } };

export type Server = {
  name: string;
  base: string;
  process: ChildProcess;
  startupMs: number;
  /** From answering to idle: how long the rest of its start-up kept it busy; 0 for the baseline. */
  jobsMs: number;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("No free port"))));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not answer within 120 s`);
}

async function start(name: string, args: string[], cwd: string, env: Record<string, string>, readyPath: string): Promise<Server> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, HOST: "127.0.0.1", PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(base + readyPath, child);
  } catch (error) {
    await stopServer({ name, base, process: child, startupMs: 0, jobsMs: 0 });
    throw error;
  }
  return { name, base, process: child, startupMs: performance.now() - started, jobsMs: 0 };
}

/**
 * Settings for a measured server: no store refresh for an hour. The network does not change
 * while it is measured, and the jobs a timed refresh starts (the week's digest, the response
 * recount) would be measured with whichever page was loaded then.
 */
export const NO_TIMED_REFRESH = { STORE_REFRESH_SECONDS: "3600" } as const;

/** Idle: under this much CPU time in a second, so no background job is running. */
const IDLE_CPU_MS_PER_SECOND = 20;
/**
 * Idle under `--cpu-prof`: the profiler samples both processes of npm start's line (the
 * parent passes its flags to the server) a thousand times a second, which alone costs them
 * more than the plain threshold while nothing runs.
 */
const IDLE_CPU_MS_PER_SECOND_PROFILED = 150;

/**
 * Waits until the server has been idle for a second: what its start-up still does after it
 * answers is over, so the page figures taken next measure pages alone. (The jobs, the week's
 * digest among them, first run after the first timed refresh: NO_TIMED_REFRESH keeps them
 * out of a measurement.) Returns how long that took.
 */
async function waitUntilIdle(server: Server, idleCpuMsPerSecond: number): Promise<number> {
  const started = performance.now();
  const deadline = started + 300_000;
  let before = cpuMs(server);
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = cpuMs(server);
    if (!(now - before >= idleCpuMsPerSecond)) return performance.now() - started;
    before = now;
  }
  throw new Error(`${server.name} was still busy 300 s after it answered: its background jobs did not end`);
}

/**
 * The app's production build on the store in `dataDir`: up once `/healthz` answers, which
 * is after the store's first load, and returned once idle (no background job running).
 * `nodeOptions` go to node before the entry (`--cpu-prof`); `env` adds to or replaces its settings (`DATABASE_URL`).
 */
export async function startApp(
  dataDir: string,
  nodeOptions: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<Server> {
  const server = await start(
    "app",
    [...nodeOptions, ...PRODUCTION_COMMAND.args],
    ROOT,
    {
      ...PRODUCTION_COMMAND.env,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      LOG_REQUESTS: "off",
      DATA_DIR: dataDir,
      APP_URL: "http://127.0.0.1",
      ...env,
    },
    "/healthz",
  );
  try {
    const profiled = nodeOptions.some((option) => option.startsWith("--cpu-prof"));
    return { ...server, jobsMs: await waitUntilIdle(server, profiled ? IDLE_CPU_MS_PER_SECOND_PROFILED : IDLE_CPU_MS_PER_SECOND) };
  } catch (error) {
    await stopServer(server);
    throw error;
  }
}

/** The bare Remix page of bench/baseline, served the way remix-serve serves it. */
export function startBaseline(): Promise<Server> {
  return start("baseline", ["server.mjs"], path.join(ROOT, "bench/baseline"), { NODE_ENV: "production" }, "/");
}

export async function stopServer(server: Server): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGTERM");
  const timer = setTimeout(() => server.process.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

let ticks: number | undefined;
function clockTicksPerSecond(): number {
  ticks ??= Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  return ticks;
}

/**
 * The server's processes: the one started and, down the line of only children, the one it
 * started in turn (`npm start` runs the server as start.mjs's child with the heap limits it
 * chose, decision 0077). The bare Remix page is one process.
 */
function processLine(server: Server): number[] {
  const line = [server.process.pid!];
  for (;;) {
    const pid = line.at(-1)!;
    let children: string[];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").filter(Boolean);
    } catch {
      return line;
    }
    if (children.length !== 1) return line;
    line.push(Number(children[0]));
  }
}

/** One process's CPU time so far (user + system) in milliseconds. */
function processCpuMs(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond();
}

/** The server's CPU time so far (user + system, over its processes) in milliseconds; NaN where there is no /proc. */
export function cpuMs(server: Server): number {
  try {
    return processLine(server).reduce((total, pid) => total + processCpuMs(pid), 0);
  } catch {
    return Number.NaN;
  }
}

function processRssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** The process that serves the pages: the last of the line. */
export function servingPid(server: Server): number {
  return processLine(server).at(-1)!;
}

/** The serving process's resident memory in MB; NaN where there is no /proc. */
export function rssMb(server: Server): number {
  try {
    return processRssMb(servingPid(server));
  } catch {
    return Number.NaN;
  }
}

/** start.mjs's resident memory in MB while it waits for the server it started; 0 when the server is the process started. */
export function starterRssMb(server: Server): number {
  try {
    const line = processLine(server);
    return line.length > 1 ? processRssMb(line[0]!) : 0;
  } catch {
    return Number.NaN;
  }
}
