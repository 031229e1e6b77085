/**
 * `npm run bench:profile -- /referral-requests`: where one page's server time goes. Starts
 * the production build with `--cpu-prof` on the benchmark's network, loads the page for a
 * while, stops the server and prints the functions with the most self time, and the time
 * by package. The .cpuprofile file is kept for Chrome DevTools.
 *
 * Only the samples taken during the measured load count, so the start-up and the warm-up stay
 * out of the figures (the whole run is still in the file).
 *
 * Options: --quick (small network), --seconds N (10), --encoding br|identity (identity: the
 * page as rendered, no compression), --member (log in first; on by default
 * for pages other than /, the public pages and /directory), --startup (no load: where the
 * start-up's time goes, reading the store into the replica).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import bcrypt from "bcryptjs";
import { BENCH_MEMBER_EMAIL, LARGE_NETWORK, writeNetwork } from "./large-network";
import { load } from "./measure";
import { startApp, stopServer } from "./servers";

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
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };
/** A span of V8's profile clock, in microseconds: CLOCK_MONOTONIC on Linux, the clock `process.hrtime` reads too. */
type Window = { fromUs: number; toUs: number };

function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Where a frame's code lives: a package, node itself, or the app's build. */
function packageOf(url: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.startsWith("node:") || url === "") return "node internals / GC / idle";
  if (url.includes("/build/server/")) return "app (build/server)";
  return path.relative(process.cwd(), url.replace("file://", ""));
}

/** Each node's self time, counting only the samples taken inside the window when one is given. */
function selfTimes(profile: Profile, window?: Window): Map<number, number> {
  const selfMs = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    selfMs.set(id, (selfMs.get(id) ?? 0) + delta / 1000);
  });
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

function summarise(profile: Profile, window?: Window): void {
  const selfMs = selfTimes(profile, window);
  for (const node of profile.nodes) if (node.callFrame.functionName === "(idle)") selfMs.delete(node.id);
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

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-profile-"));
  const profileDir = path.join(dataDir, "profile");
  await writeNetwork(
    dataDir,
    args.quick ? { agents: 1_000, requests: 400, liveRequests: 150, messages: 10_000, memberMessages: 300 } : LARGE_NETWORK,
    await bcrypt.hash(PASSWORD, 4),
  );
  const app = await startApp(dataDir, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]);
  if (args.startup) {
    await stopServer(app);
    console.log(`Start-up: ${app.startupMs.toFixed(0)} ms. Profile: ${path.join(profileDir, profileFile(profileDir))}`);
    summarise(JSON.parse(readFileSync(path.join(profileDir, profileFile(profileDir)), "utf8")) as Profile);
    return;
  }
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
  await load(app, page, { connections: 20, seconds: 1, warmupSeconds: 0, cookie, encoding });
  const window = { fromUs: nowUs(), toUs: 0 };
  const run = await load(app, page, { connections: 20, seconds: Number(args.seconds), warmupSeconds: 0, cookie, encoding });
  window.toUs = nowUs();
  await stopServer(app);
  const file = profileFile(profileDir);
  console.log(`${page}: ${run.requests} requests, ${run.cpuMsPerRequest.toFixed(2)} ms CPU each. Profile: ${path.join(profileDir, file)}`);
  console.log(`Loaded with no background job running (${encoding}); the figures count only the samples taken during the load.`);
  summarise(JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as Profile, window);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
