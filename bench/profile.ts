/**
 * `npm run bench:profile -- /referral-requests`: where one page's server time goes. Starts
 * the production build with `--cpu-prof` on the benchmark's network, loads the page for a
 * while, stops the server and prints the functions with the most self time, and the time
 * by package. The .cpuprofile file is kept for Chrome DevTools.
 *
 * Options: --quick (small network), --seconds N (10), --member (log in first; on by default
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
  },
});
const page = positionals[0] ?? "/referral-requests";
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

function summarise(profile: Profile): void {
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (node.callFrame.functionName === "(idle)") continue;
    total += ms;
    const name = `${node.callFrame.functionName || "(anonymous)"} ${packageOf(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    const pkg = node.callFrame.url ? packageOf(node.callFrame.url) : node.callFrame.functionName;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
  console.log(
    `Busy time sampled: ${(total / 1000).toFixed(1)} s.\nBy package or phase:\n${top(byPackage, 12).join("\n")}\nFunctions with the most self time:\n${top(byFunction, 20).join("\n")}`,
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
  const run = await load(app, page, { connections: 20, seconds: Number(args.seconds), warmupSeconds: 1, cookie });
  await stopServer(app);
  const file = profileFile(profileDir);
  console.log(`${page}: ${run.requests} requests, ${run.cpuMsPerRequest.toFixed(2)} ms CPU each. Profile: ${path.join(profileDir, file)}`);
  console.log(
    `Loaded with no background job running; the profile covers the whole process, so it also holds the start-up's jobs (${(app.jobsMs / 1000).toFixed(1)} s, the week's digest among them).`,
  );
  summarise(JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as Profile);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
