/**
 * `npm run bench`: the production build on a large network, every page of the table
 * loaded with autocannon beside a bare Remix page and `/healthz`, with the budgets of
 * docs/product.md#performance-budgets marked met or missed (printed, never asserted). Also start-up time and
 * memory, page weight, cost growth with the store's size, and the longest stall after
 * one write. Results go to bench/results/ as JSON.
 *
 *   npm run bench                       # the budgets' sizes, 3 rounds: about 15 minutes
 *   npm run bench -- --quick            # small network, 1 round, short runs, growth at two small sizes
 *   npm run bench -- --skip-build --rounds 1 --seconds 5 --growth off
 *
 * Options: --agents --requests --live --messages --member-messages (the large network),
 * --rounds (3), --seconds per run (8), --warmup seconds (2), --connections (50),
 * --growth full|quick|off, --skip-build.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import bcrypt from "bcryptjs";
import { logIn } from "../scripts/lib/built-server";
import { agentIdOf } from "../app/domain/agent-id";
import { agentProfilePath } from "../app/domain/directory-cards";
import { WHY_PATH } from "../app/domain/product";
import { BENCH_MEMBER_EMAIL, LARGE_NETWORK, writeNetwork, type NetworkSize } from "./large-network";
import { compareCompression, type CompressionRow } from "./compression";
import { load, weigh, type LoadResult, type PageWeight } from "./measure";
import { NO_TIMED_REFRESH, rssMb, starterRssMb, startApp, startBaseline, stopServer } from "./servers";
import { f1, f2, mark, median, table } from "./report";
import { measureStalls, type Stall, type Stalls } from "./stall";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    agents: { type: "string" },
    requests: { type: "string" },
    live: { type: "string" },
    messages: { type: "string" },
    "member-messages": { type: "string" },
    rounds: { type: "string" },
    seconds: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string", default: "50" },
    growth: { type: "string" },
    "skip-build": { type: "boolean", default: false },
  },
});

const QUICK_NETWORK: NetworkSize = { agents: 1_000, requests: 400, liveRequests: 150, messages: 10_000, memberMessages: 300 };
const base = args.quick ? QUICK_NETWORK : LARGE_NETWORK;
const network: NetworkSize = {
  agents: numberArg("agents", base.agents),
  requests: numberArg("requests", base.requests),
  liveRequests: numberArg("live", base.liveRequests),
  messages: numberArg("messages", base.messages),
  memberMessages: numberArg("member-messages", base.memberMessages),
};
const rounds = numberArg("rounds", args.quick ? 1 : 3);
const seconds = numberArg("seconds", args.quick ? 3 : 8);
const warmupSeconds = numberArg("warmup", args.quick ? 1 : 2);
const connections = numberArg("connections", 50);
const growthMode = (args.growth ?? (args.quick ? "quick" : "full")) as "full" | "quick" | "off";
const PASSWORD = "bench-member-password";

function numberArg(name: keyof typeof args, fallback: number): number {
  const raw = args[name];
  if (raw === undefined || typeof raw === "boolean") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number, not ${raw}`);
  return value;
}

// ---------------------------------------------------------------------------
// Budgets (docs/product.md#performance-budgets)

const BUDGET = {
  publicRatio: 0.8,
  memberRatio: 0.5,
  p99Ms: 300,
  htmlKb: 150,
  jsGzipKb: 100,
  cssGzipKb: 30,
  startupMs: 2_000,
  memoryMb: 300,
  stallMs: 5,
  growth: 1.3,
};

/**
 * Public pages are served from the page cache to visitors without cookies; a cookie the app
 * ignores makes the cache step aside, so the "rendered" rows and the directory's growth
 * series measure the render itself (search, loaders, React) as a first visit pays it.
 */
const RENDER_COOKIE = "bench-render=1";

type Page = { label: string; path: string; member: boolean; render?: boolean };

const cookieFor = (page: { member: boolean; render?: boolean }, memberCookie: string | undefined) =>
  page.member ? memberCookie : page.render ? RENDER_COOKIE : undefined;

function pagesOf(memberThread: string): Page[] {
  return [
    { label: "/", path: "/", member: false },
    { label: WHY_PATH, path: WHY_PATH, member: false },
    { label: "/directory search p3", path: "/directory?q=san&state=TX&page=3", member: false },
    { label: "/directory search p3, rendered", path: "/directory?q=san&state=TX&page=3", member: false, render: true },
    { label: "/member-directory TX p3", path: "/member-directory?state=TX&page=3", member: true },
    { label: "/agent/:id (profile)", path: agentProfilePath(agentIdOf({ email: "agent1@bench.example.com", fullName: "" })), member: true },
    { label: "/member-dashboard", path: "/member-dashboard", member: true },
    { label: "/messages", path: "/messages", member: true },
    { label: "/messages thread", path: `/messages?conversation=${encodeURIComponent(memberThread)}`, member: true },
    { label: "/referral-requests", path: "/referral-requests", member: true },
    { label: "/referral-requests p10", path: "/referral-requests?page=10", member: true },
  ];
}

// ---------------------------------------------------------------------------

function build(): void {
  const steps: string[][] = args["skip-build"] ? [] : [["remix", "vite:build"]];
  steps.push(["remix", "vite:build", "bench/baseline"]);
  for (const step of steps) {
    console.log(`Building: npx ${step.join(" ")}`);
    const result = spawnSync("npx", step, { stdio: ["ignore", "ignore", "inherit"] });
    if (result.status !== 0) throw new Error(`npx ${step.join(" ")} failed`);
  }
}

async function withNetwork<T>(size: NetworkSize, passwordHash: string, use: (dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-"));
  try {
    await writeNetwork(dataDir, size, passwordHash);
    return await use(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One page's runs, each right after a run of the bare page with the same encoding: `runs` and
 * `baselineRuns` with brotli (as Chromium asks), `plainRuns` and `plainBaselineRuns` without
 * encoding, so that compression's share shows.
 */
type PageResult = {
  page: Page;
  weight: PageWeight;
  runs: LoadResult[];
  baselineRuns: LoadResult[];
  plainRuns: LoadResult[];
  plainBaselineRuns: LoadResult[];
  ratio: number;
};

type MainResult = {
  startupMs: number;
  /** From the server's first answer until it was idle: the measuring starts after its background jobs. */
  jobsMs: number;
  rssAfterStartMb: number;
  rssAfterLoadMb: number;
  /** start.mjs, waiting for the server it started with the heap limits it chose (decision 0077). */
  starterMb: number;
  healthz: LoadResult[];
  pages: PageResult[];
  /** The 1-minute load average before the first run and after the last. */
  loadAverage: [number, number];
  baselineWeight: PageWeight;
  stalls: Stalls;
  compression: CompressionRow[];
};

async function mainRun(passwordHash: string): Promise<MainResult> {
  return withNetwork(network, passwordHash, async (dataDir) => {
    const app = await startApp(dataDir, [], NO_TIMED_REFRESH);
    const rssAfterStartMb = rssMb(app);
    const baseline = await startBaseline();
    try {
      const cookie = await logIn(app.base, BENCH_MEMBER_EMAIL, PASSWORD);
      const pages = pagesOf("bench-0--bench-1");
      const weights = new Map<Page, PageWeight>();
      for (const page of pages) weights.set(page, await weigh(app, page.path, cookieFor(page, cookie)));
      const baselineWeight = await weigh(baseline, "/");
      const runs = new Map<Page, LoadResult[]>(pages.map((page) => [page, []]));
      const baselineRuns = new Map<Page, LoadResult[]>(pages.map((page) => [page, []]));
      const plainRuns = new Map<Page, LoadResult[]>(pages.map((page) => [page, []]));
      const plainBaselineRuns = new Map<Page, LoadResult[]>(pages.map((page) => [page, []]));
      const loadBefore = loadavg()[0]!;
      const healthz: LoadResult[] = [];
      const options = { connections, seconds, warmupSeconds };
      for (let round = 1; round <= rounds; round += 1) {
        console.log(`Round ${round} of ${rounds}...`);
        healthz.push(await load(app, "/healthz", options));
        for (const page of pages) {
          // Each page right after the baseline, so both see the same machine.
          baselineRuns.get(page)!.push(await load(baseline, "/", options));
          runs.get(page)!.push(await load(app, page.path, { ...options, cookie: cookieFor(page, cookie) }));
          const plain = { ...options, encoding: "identity" as const };
          plainBaselineRuns.get(page)!.push(await load(baseline, "/", plain));
          plainRuns.get(page)!.push(await load(app, page.path, { ...plain, cookie: cookieFor(page, cookie) }));
        }
      }
      const rssAfterLoadMb = rssMb(app);
      const starterMb = starterRssMb(app);
      await Promise.all([stopServer(app), stopServer(baseline)]);
      const stalls = await measureStalls(dataDir, BENCH_MEMBER_EMAIL);
      const compression = compareCompression([...weights.values()].map((weight) => weight.html));
      return {
        compression,
        startupMs: app.startupMs,
        jobsMs: app.jobsMs,
        rssAfterStartMb,
        rssAfterLoadMb,
        starterMb,
        healthz,
        loadAverage: [loadBefore, loadavg()[0]!],
        baselineWeight,
        stalls,
        pages: pages.map((page) => {
          const pageRuns = runs.get(page)!;
          const base = baselineRuns.get(page)!;
          return {
            page,
            weight: weights.get(page)!,
            runs: pageRuns,
            baselineRuns: base,
            plainRuns: plainRuns.get(page)!,
            plainBaselineRuns: plainBaselineRuns.get(page)!,
            ratio: median(pageRuns.map((run, i) => run.requestsPerSecond / base[i]!.requestsPerSecond)),
          };
        }),
      };
    } finally {
      await Promise.all([stopServer(app), stopServer(baseline)]);
    }
  });
}

// ---------------------------------------------------------------------------
// Cost growth: one page's CPU per request as the store grows, and the write stall at each size

type GrowthPoint = { size: string; cpuMsPerRequest: number; p50Ms: number; htmlKb: number; stall: Stall };
type GrowthSeries = { name: string; path: string; points: GrowthPoint[] };

function growthPlans(): {
  name: string;
  path: string;
  member: boolean;
  render?: boolean;
  sizes: { size: string; network: NetworkSize }[];
}[] {
  const small = { agents: 300, requests: 100, liveRequests: 50, messages: 2_000, memberMessages: 100 };
  const full = growthMode === "full";
  const agentSizes = full ? [1_000, 5_000, 20_000] : [300, 1_000];
  const storeMessages = full ? [10_000, 100_000, 300_000] : [2_000, 10_000];
  const ownMessages = full ? [100, 1_000, 10_000] : [100, 1_000];
  const requestSizes = full ? [300, 2_000, 6_000] : [100, 400];
  return [
    {
      name: "directory search at N agents (rendered, not cached)",
      path: "/directory?q=san&state=TX&page=3",
      member: false,
      render: true,
      sizes: agentSizes.map((agents) => ({ size: `${agents} agents`, network: { ...small, agents } })),
    },
    {
      name: "/messages at N messages in the store",
      path: "/messages",
      member: true,
      sizes: storeMessages.map((messages) => ({ size: `${messages} messages`, network: { ...small, agents: 1_000, messages } })),
    },
    {
      name: "/messages with N of the member's own",
      path: "/messages",
      member: true,
      sizes: ownMessages.map((memberMessages) => ({
        size: `${memberMessages} own`,
        network: { ...small, agents: 1_000, messages: Math.max(20_000, memberMessages * 2), memberMessages },
      })),
    },
    {
      name: "/referral-requests at N requests",
      path: "/referral-requests",
      member: true,
      sizes: requestSizes.map((requests) => ({
        size: `${requests} requests`,
        network: { ...small, requests, liveRequests: Math.round(requests * 0.32) },
      })),
    },
  ];
}

async function growthRun(passwordHash: string): Promise<GrowthSeries[]> {
  const series: GrowthSeries[] = [];
  for (const plan of growthPlans()) {
    const points: GrowthPoint[] = [];
    for (const { size, network: sized } of plan.sizes) {
      console.log(`Growth: ${plan.name}, ${size}...`);
      points.push(
        await withNetwork(sized, passwordHash, async (dataDir) => {
          const app = await startApp(dataDir, [], NO_TIMED_REFRESH);
          try {
            const cookie = cookieFor(plan, plan.member ? await logIn(app.base, BENCH_MEMBER_EMAIL, PASSWORD) : undefined);
            const weight = await weigh(app, plan.path, cookie);
            const run = await load(app, plan.path, {
              connections: 10,
              seconds: Math.max(2, Math.round(seconds / 2)),
              warmupSeconds: 1,
              cookie,
            });
            await stopServer(app);
            const stalls = await measureStalls(dataDir, BENCH_MEMBER_EMAIL);
            const stall = plan.path.startsWith("/directory") ? stalls.agentWrite : stalls.messageWrite;
            return { size, cpuMsPerRequest: run.cpuMsPerRequest, p50Ms: run.p50Ms, htmlKb: weight.htmlKb, stall };
          } finally {
            await stopServer(app);
          }
        }),
      );
    }
    series.push({ name: plan.name, path: plan.path, points });
  }
  return series;
}

// ---------------------------------------------------------------------------
// Report

const stallOf = (stall: Stall) => stall.writeMs + stall.readAfterWriteMs;

function stallLine(what: string, stall: Stall): string {
  return (
    `Stall after ${what}: ${f2(stallOf(stall))} ms = write ${f2(stall.writeMs)} ms + first read ${f2(stall.readAfterWriteMs)} ms ` +
    `(the read alone, nothing changed: ${f2(stall.steadyReadMs)} ms; budget ≤ ${BUDGET.stallMs} ms: ${mark(stallOf(stall) <= BUDGET.stallMs)}).`
  );
}

/** The page's CPU per request over the bare page's in the run just before it, the median over rounds. */
function cpuRatio(runs: readonly LoadResult[], baselineRuns: readonly LoadResult[]): number {
  return median(runs.map((run, i) => run.cpuMsPerRequest / baselineRuns[i]!.cpuMsPerRequest));
}

/** How far the bare page's CPU per request moved between its runs, as a share of the least. */
function baselineDrift(main: MainResult): number {
  // Brotli costs the bare page several times its plain CPU: each encoding's runs are compared with their own kind only.
  const spread = (runs: readonly LoadResult[]) => {
    const costs = runs.map((run) => run.cpuMsPerRequest);
    return Math.max(...costs) / Math.min(...costs) - 1;
  };
  return Math.max(spread(main.pages.flatMap((page) => page.baselineRuns)), spread(main.pages.flatMap((page) => page.plainBaselineRuns)));
}

const CPU_BUDGET = { member: 2, cachedPublic: 0.5 };

/** Every page's CPU per request against the bare page's, with brotli and without encoding, and how many requests each run got. */
function cpuTable(main: MainResult): string[] {
  const drift = baselineDrift(main);
  const rows = main.pages.map((result) => {
    const ratio = cpuRatio(result.runs, result.baselineRuns);
    const budget = result.page.member ? CPU_BUDGET.member : result.page.render ? undefined : CPU_BUDGET.cachedPublic;
    const requests = (runs: readonly LoadResult[]) => runs.reduce((sum, run) => sum + run.requests, 0);
    return [
      result.page.label,
      `${requests(result.runs)} / ${requests(result.plainRuns)}`,
      f2(median(result.runs.map((run) => run.cpuMsPerRequest))),
      f2(median(result.baselineRuns.map((run) => run.cpuMsPerRequest))),
      f2(ratio),
      f2(median(result.plainRuns.map((run) => run.cpuMsPerRequest))),
      f2(median(result.plainBaselineRuns.map((run) => run.cpuMsPerRequest))),
      f2(cpuRatio(result.plainRuns, result.plainBaselineRuns)),
      budget === undefined ? "" : `≤ ${budget}× ${mark(ratio <= budget)}`,
    ];
  });
  return [
    "CPU per request against the bare Remix page loaded just before each run, with brotli and without encoding:",
    table(
      ["page", "requests br / plain", "CPU ms br", "bare br", "× bare br", "CPU ms plain", "bare plain", "× bare plain", "budget (br)"],
      rows,
    ),
    `Load average (1 min): ${f2(main.loadAverage[0])} before the runs, ${f2(main.loadAverage[1])} after, on ${cpus().length} cores.`,
    drift > 0.2
      ? `The bare page's CPU per request moved by ${f1(drift * 100)}% between its runs: the machine's load changed during the measurement, so these ratios are noisy; run again on a quieter machine.`
      : `The bare page's CPU per request moved by ${f1(drift * 100)}% between its runs (under 20%: the machine's load held steady).`,
    "",
  ];
}

function report(main: MainResult, growth: GrowthSeries[]): string {
  const out: string[] = [];
  const baselineRps = median(main.pages.flatMap((page) => page.baselineRuns.map((run) => run.requestsPerSecond)));
  const healthz = median(main.healthz.map((run) => run.requestsPerSecond));
  out.push(
    `Network: ${network.agents} agents, ${network.requests} requests (${network.liveRequests} live), ${network.messages} messages (${network.memberMessages} the member's).`,
    `${rounds} round(s), ${seconds} s per run after ${warmupSeconds} s warm-up, ${connections} connections, Accept-Encoding "${"gzip, deflate, br, zstd"}".`,
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}. Medians over rounds; ratio = page req/s ÷ the bare Remix page's in the run just before it.`,
    "",
  );
  const rows = [
    [
      "bare Remix 24-item page",
      f1(baselineRps),
      "",
      "",
      f2(median(main.pages.flatMap((p) => p.baselineRuns.map((r) => r.cpuMsPerRequest)))),
      "1.00",
      f1(main.baselineWeight.htmlKb),
      "",
      "",
    ],
    [
      "/healthz",
      f1(healthz),
      f1(median(main.healthz.map((r) => r.p50Ms))),
      f1(median(main.healthz.map((r) => r.p99Ms))),
      f2(median(main.healthz.map((r) => r.cpuMsPerRequest))),
      f2(healthz / baselineRps),
      "",
      "",
      "",
    ],
  ];
  for (const result of main.pages) {
    const p99 = median(result.runs.map((run) => run.p99Ms));
    const ratioBudget = result.page.member ? BUDGET.memberRatio : BUDGET.publicRatio;
    const failures = result.runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0);
    const budgets = [
      `ratio ≥ ${ratioBudget} ${mark(result.ratio >= ratioBudget)}`,
      `p99 ${mark(p99 < BUDGET.p99Ms)}`,
      `HTML ${mark(result.weight.htmlKb <= BUDGET.htmlKb)}`,
      `JS ${mark(result.weight.jsGzipKb <= BUDGET.jsGzipKb)}`,
      `CSS ${mark(result.weight.cssGzipKb <= BUDGET.cssGzipKb)}`,
      ...(failures > 0 || result.weight.status !== 200 ? [`${failures} failed, status ${result.weight.status}`] : []),
    ];
    rows.push([
      result.page.label,
      f1(median(result.runs.map((run) => run.requestsPerSecond))),
      f1(median(result.runs.map((run) => run.p50Ms))),
      f1(p99),
      f2(median(result.runs.map((run) => run.cpuMsPerRequest))),
      f2(result.ratio),
      `${f1(result.weight.htmlKb)} (${f1(result.weight.htmlSentKb)} sent)`,
      `${f1(result.weight.jsGzipKb)} / ${f1(result.weight.cssGzipKb)}`,
      budgets.join(", "),
    ]);
  }
  out.push(
    `Taken with no background job running: each server was idle before its pages were loaded (the main server ${f1(main.jobsMs / 1000)} s after it answered), and the app's store refresh was set to an hour, so no job (the jobs first run after the first timed refresh, the week's digest among them) ran before or during the runs.`,
    table(["page", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "ratio", "HTML KB", "JS / CSS KB gz", "budgets"], rows),
    "",
  );
  out.push(...cpuTable(main));
  out.push(
    `Start-up with this store: ${f1(main.startupMs)} ms (budget < ${BUDGET.startupMs} ms: ${mark(main.startupMs < BUDGET.startupMs)}).`,
    `Memory: ${f1(main.rssAfterStartMb)} MB after start, ${f1(main.rssAfterLoadMb)} MB after the load (budget < ${BUDGET.memoryMb} MB: ${mark(main.rssAfterLoadMb < BUDGET.memoryMb)}), with the heap limits npm start chose; start.mjs, waiting for the server, ${f1(main.starterMb)} MB.`,
    stallLine("one agent write, then a directory search", main.stalls.agentWrite),
    stallLine("one message, then the member's conversation list and unread count", main.stalls.messageWrite),
    "",
  );
  out.push(
    "Compression of these pages' HTML, in this process (CPU ms and KB per page):",
    table(
      ["setting", "CPU ms/page", "KB/page"],
      main.compression.map((row) => [row.setting, f2(row.cpuMsPerPage), f1(row.kbPerPage)]),
    ),
    "",
  );
  for (const series of growth) {
    const first = series.points[0]!;
    const last = series.points.at(-1)!;
    const growthFactor = last.cpuMsPerRequest / first.cpuMsPerRequest;
    out.push(
      `Cost growth, ${series.name} (${series.path}): ×${f2(growthFactor)} CPU from ${first.size} to ${last.size} (budget ≤ ×${BUDGET.growth}: ${mark(growthFactor <= BUDGET.growth)})`,
    );
    out.push(
      table(
        ["size", "CPU ms/req", "p50 ms (10 conn.)", "HTML KB", "stall after a write: write + first read, ms"],
        series.points.map((point) => [
          point.size,
          f2(point.cpuMsPerRequest),
          f1(point.p50Ms),
          f1(point.htmlKb),
          `${f2(point.stall.writeMs)} + ${f2(point.stall.readAfterWriteMs)} ${mark(stallOf(point.stall) <= BUDGET.stallMs)}`,
        ]),
      ),
      "",
    );
  }
  return out.join("\n");
}

async function main(): Promise<void> {
  build();
  const passwordHash = await bcrypt.hash(PASSWORD, 4);
  const started = Date.now();
  const mainResult = await mainRun(passwordHash);
  const growth = growthMode === "off" ? [] : await growthRun(passwordHash);
  const text = report(mainResult, growth);
  console.log(`\n${text}`);
  console.log("Figures from a shared, busy machine vary from run to run; compare ratios taken in the same run rather than absolute rates.");
  const resultsDir = path.join(import.meta.dirname, "results");
  mkdirSync(resultsDir, { recursive: true });
  const json = JSON.stringify(
    {
      date: new Date().toISOString(),
      tookSeconds: (Date.now() - started) / 1000,
      network,
      rounds,
      seconds,
      connections,
      budgets: BUDGET,
      main: mainResult,
      growth,
      report: text,
    },
    (key, value: unknown) => (key === "html" ? undefined : value),
    2,
  );
  const file = path.join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, json);
  writeFileSync(path.join(resultsDir, "latest.json"), json);
  console.log(`Results: ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
