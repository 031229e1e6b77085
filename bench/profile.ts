/**
 * `npm run bench:profile -- /referral-requests`: where one page's server time goes. Starts
 * the production build on the benchmark's network with no timed store refresh (so none of the
 * jobs a refresh starts runs during the load) and waits until it is idle, warms the page up, then opens the serving
 * process's inspector (SIGUSR1, on 127.0.0.1:9229) and profiles the load alone through the
 * DevTools protocol. Prints the time by package, the functions with the most self time and
 * those with the most total time. The .cpuprofile file is kept for Chrome DevTools.
 *
 * Options: --quick (small network), --seconds N (10), --encoding br|identity (identity: the
 * page as rendered, no compression), --member (log in first; on by default
 * for pages other than /, the public pages and /directory), --startup (no load: where the
 * start-up's time goes, reading the store into the replica; the whole process under `--cpu-prof`).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import bcrypt from "bcryptjs";
import { BENCH_MEMBER_EMAIL, LARGE_NETWORK, writeNetwork } from "./large-network";
import { load } from "./measure";
import { NO_TIMED_REFRESH, servingPid, startApp, stopServer, type Server } from "./servers";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: "boolean", default: false },
    seconds: { type: "string", default: "10" },
    startup: { type: "boolean", default: false },
    encoding: { type: "string", default: "identity" },
  },
});
const page = positionals[0] ?? "/referral-requests";
const encoding = args.encoding === "br" ? "br" : "identity";
const PASSWORD = "bench-member-password";
const isPublic =
  page === "/" || page.startsWith("/directory") || page.startsWith("/why") || page.startsWith("/privacy") || page.startsWith("/terms");

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Where a frame's code lives: a package, node itself, or the app's build. */
function packageOf(url: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.startsWith("node:") || url === "") return "node internals / GC / idle";
  if (url.includes("/build/server/")) return "app (build/server)";
  return path.relative(process.cwd(), url.replace("file://", ""));
}

/** Each node's self time in ms, idle left out. */
function selfTimes(profile: Profile): Map<number, number> {
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  for (const node of profile.nodes) if (node.callFrame.functionName === "(idle)") selfMs.delete(node.id);
  return selfMs;
}

function frameName(node: ProfileNode): string {
  return `${node.callFrame.functionName || "(anonymous)"} ${packageOf(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
}

/**
 * Each function's total time: its own and its callees', each sample counted once per
 * function however deep the recursion. The self-time list says what is slow; this one
 * says which call (a loader, a component, the router's matching) it was slow for.
 */
function totalTimes(profile: Profile, selfMs: Map<number, number>): Map<string, number> {
  const parentOf = new Map<number, ProfileNode>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const totals = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const names = new Set<string>();
    for (let node = byId.get(id); node; node = parentOf.get(node.id)) names.add(frameName(node));
    for (const name of names) totals.set(name, (totals.get(name) ?? 0) + ms);
  }
  totals.delete(frameName(profile.nodes[0]!));
  return totals;
}

function summarise(profile: Profile): void {
  const selfMs = selfTimes(profile);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    total += ms;
    byFunction.set(frameName(node), (byFunction.get(frameName(node)) ?? 0) + ms);
    const pkg = node.callFrame.url ? packageOf(node.callFrame.url) : node.callFrame.functionName;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
  console.log(
    [
      `Busy time sampled: ${(total / 1000).toFixed(1)} s.`,
      `By package or phase:\n${top(byPackage, 12).join("\n")}`,
      `Functions with the most self time:\n${top(byFunction, 20).join("\n")}`,
      `Functions with the most total time (their own and their callees'):\n${top(totalTimes(profile, selfMs), 40).join("\n")}`,
    ].join("\n"),
  );
}

/** The server's profile: the largest, as start.mjs, which only waited for the server it started (decision 0077), writes one too. */
function profileFile(profileDir: string): string {
  const files = readdirSync(profileDir).filter((name) => name.endsWith(".cpuprofile"));
  const file = files.sort((a, b) => statSync(path.join(profileDir, b)).size - statSync(path.join(profileDir, a)).size)[0];
  if (!file) throw new Error("The server wrote no CPU profile");
  return file;
}

/** Where the start-up's time goes: the whole process under `--cpu-prof`, from start to idle. */
async function profileStartup(dataDir: string): Promise<void> {
  const profileDir = path.join(dataDir, "profile");
  const app = await startApp(dataDir, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`], NO_TIMED_REFRESH);
  await stopServer(app);
  const file = path.join(profileDir, profileFile(profileDir));
  console.log(`Start-up: ${app.startupMs.toFixed(0)} ms. Profile: ${file}`);
  summarise(JSON.parse(readFileSync(file, "utf8")) as Profile);
}

/** The port a Node process's inspector opens on when SIGUSR1 starts it. */
const INSPECTOR_PORT = 9229;

type Inspector = { call(method: string, params?: object): Promise<Record<string, unknown>>; close(): void };

/** Opens the serving process's inspector and connects to it over the DevTools protocol. */
async function openInspector(server: Server): Promise<Inspector> {
  process.kill(servingPid(server), "SIGUSR1");
  const deadline = Date.now() + 10_000;
  let targets: { webSocketDebuggerUrl: string }[] | undefined;
  while (!targets && Date.now() < deadline) {
    targets = await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`).then(
      (response) => response.json() as Promise<{ webSocketDebuggerUrl: string }[]>,
      () => undefined,
    );
    if (!targets) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const url = targets?.[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`The server's inspector did not open on port ${INSPECTOR_PORT} (is another process using it?)`);
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  socket.onmessage = (event: MessageEvent<string>) => {
    const message = JSON.parse(event.data) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  };
  let nextId = 1;
  return {
    call: (method, params = {}) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-profile-"));
  await writeNetwork(
    dataDir,
    args.quick ? { agents: 1_000, requests: 400, liveRequests: 150, messages: 10_000, memberMessages: 300 } : LARGE_NETWORK,
    await bcrypt.hash(PASSWORD, 4),
  );
  if (args.startup) return profileStartup(dataDir);
  const app = await startApp(dataDir, [], NO_TIMED_REFRESH);
  let cookie: string | undefined;
  if (!isPublic) {
    const response = await fetch(`${app.base}/member-login`, {
      method: "POST",
      headers: { origin: app.base, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: BENCH_MEMBER_EMAIL, password: PASSWORD }),
      redirect: "manual",
    });
    cookie = response.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
  }
  await load(app, page, { connections: 20, seconds: 2, warmupSeconds: 0, cookie, encoding });
  const inspector = await openInspector(app);
  await inspector.call("Profiler.enable");
  await inspector.call("Profiler.start");
  const run = await load(app, page, { connections: 20, seconds: Number(args.seconds), warmupSeconds: 0, cookie, encoding });
  const { profile } = (await inspector.call("Profiler.stop")) as { profile: Profile };
  inspector.close();
  await stopServer(app);
  const file = path.join(dataDir, "load.cpuprofile");
  writeFileSync(file, JSON.stringify(profile));
  console.log(
    `${page}: ${run.requests} requests, ${run.cpuMsPerRequest.toFixed(2)} ms CPU each (${encoding}, under the profiler). Profile: ${file}`,
  );
  console.log("The profile holds the load alone: it started once the server was idle and the page warm.");
  summarise(profile);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
