/**
 * `npm run audit`: Lighthouse (mobile, the default config) on the production build with
 * the demo network, public pages and, with a demo member's session cookie, member pages.
 * Prints the four category scores per page against the budgets of docs/product.md#performance-budgets, the failing
 * audits of any page under budget, and first-load JavaScript and CSS (gzipped) per page;
 * each full report goes to bench/results/lighthouse/.
 * Budgets are printed, never asserted; not part of `npm test`.
 *
 *   npm run audit                           # builds the app for production first
 *   CHROMIUM_PATH=/path/to/chromium npm run audit
 *   npm run audit -- --pages /,/directory   # only these pages
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROME_FLAGS, chromePath as chromiumPath, startDemoApp, type DemoApp } from "./demo-app";
import { weigh, type PageWeight } from "./measure";

const ROOT = path.resolve(import.meta.dirname, "..");

const PUBLIC_PAGES = ["/", "/directory", "/register", "/member-login", "/contact"];
const MEMBER_PAGES = ["/member-dashboard", "/referral-requests", "/messages"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];

/** docs/product.md#performance-budgets: scores out of 100, weights in gzipped KB. */
const BUDGET: Record<Category, number> & { jsGzipKb: number; cssGzipKb: number } = {
  performance: 98,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
  jsGzipKb: 100,
  cssGzipKb: 30,
};

/** Each page's full Lighthouse report lands here (git-ignored), for the details behind a failing audit. */
const REPORTS_DIR = path.join(ROOT, "bench/results/lighthouse");

const { values: args } = parseArgs({ options: { pages: { type: "string" } } });
const chosen = args.pages?.split(",").map((page) => page.trim());
const wanted = (pages: string[]) => (chosen ? pages.filter((page) => chosen.includes(page)) : pages);

type FailingAudit = { id: string; title: string; score: number };
type PageResult = {
  path: string;
  scores: Record<Category, number>;
  failing: Partial<Record<Category, FailingAudit[]>>;
  weight: PageWeight;
};

/** Lighthouse's trace recording now and then fails on a loaded machine (NO_NAVSTART): such a run is tried again. */
const ATTEMPTS = 3;

async function audit(url: string, port: number, cookie: string | undefined): Promise<Pick<PageResult, "scores" | "failing">> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(url, port, cookie);
    } catch (error) {
      if (attempt === ATTEMPTS) throw error;
      console.log(`  ${(error as Error).message}; trying again`);
    }
  }
}

async function auditOnce(url: string, port: number, cookie: string | undefined): Promise<Pick<PageResult, "scores" | "failing">> {
  const run = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  if (!run) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = run;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
  writeFileSync(path.join(REPORTS_DIR, `${new URL(url).pathname.slice(1) || "home"}.json`), run.report as string);
  const scores = {} as Record<Category, number>;
  const failing: PageResult["failing"] = {};
  for (const category of CATEGORIES) {
    const entry = lhr.categories[category]!;
    scores[category] = Math.round((entry.score ?? 0) * 100);
    if (scores[category] >= BUDGET[category]) continue;
    // The audits that cost points: weighted in the category and short of a full score.
    failing[category] = entry.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id]!)
      .filter((result) => result.score !== null && result.score < 1)
      .map((result) => ({ id: result.id, title: result.title, score: result.score! }));
  }
  return { scores, failing };
}

function printReport(results: PageResult[], chromePath: string): void {
  const mark = (met: boolean) => (met ? "met" : "MISSED");
  const pad = (text: string | number, width: number) => String(text).padEnd(width);
  console.log(
    `\nLighthouse ${lighthouseVersion()} (mobile), ${chromePath}, ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${new Date().toISOString()}`,
  );
  console.log(
    `Budgets: performance ≥ ${BUDGET.performance}, accessibility, best practices and SEO ${BUDGET.seo}; first-load JS ≤ ${BUDGET.jsGzipKb} KB and CSS ≤ ${BUDGET.cssGzipKb} KB gzipped\n`,
  );
  console.log(
    `${pad("page", 20)}${pad("performance", 14)}${pad("accessibility", 16)}${pad("best practices", 17)}${pad("SEO", 10)}${pad("JS KB", 14)}CSS KB`,
  );
  for (const result of results) {
    const cells = CATEGORIES.map((category) => `${result.scores[category]} ${mark(result.scores[category] >= BUDGET[category])}`);
    const js = `${result.weight.jsGzipKb.toFixed(1)} ${mark(result.weight.jsGzipKb <= BUDGET.jsGzipKb)}`;
    const css = `${result.weight.cssGzipKb.toFixed(1)} ${mark(result.weight.cssGzipKb <= BUDGET.cssGzipKb)}`;
    console.log(
      `${pad(result.path, 20)}${pad(cells[0]!, 14)}${pad(cells[1]!, 16)}${pad(cells[2]!, 17)}${pad(cells[3]!, 10)}${pad(js, 14)}${css}`,
    );
  }
  for (const result of results) {
    for (const [category, audits] of Object.entries(result.failing)) {
      console.log(`\n${result.path}, ${category} ${result.scores[category as Category]}:`);
      for (const failed of audits) console.log(`  ${failed.id} (${failed.score.toFixed(2)}): ${failed.title}`);
    }
  }
}

function lighthouseVersion(): string {
  return (
    spawnSync(process.execPath, [path.join(ROOT, "node_modules/lighthouse/cli/index.js"), "--version"], { encoding: "utf8" }).stdout ?? ""
  ).trim();
}

async function main(): Promise<void> {
  const chromePath = chromiumPath();
  let app: DemoApp | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    app = await startDemoApp();
    const { server, cookie } = app;
    mkdirSync(REPORTS_DIR, { recursive: true });
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
    const pages = [
      ...wanted(PUBLIC_PAGES).map((page) => ({ page, cookie: undefined })),
      ...wanted(MEMBER_PAGES).map((page) => ({ page, cookie })),
    ];
    const results: PageResult[] = [];
    for (const { page, cookie: pageCookie } of pages) {
      console.log(`Auditing ${page}...`);
      const scored = await audit(server.baseUrl + page, chrome.port, pageCookie);
      const weight = await weigh({ name: "app", base: server.baseUrl, process: server.child, startupMs: 0, jobsMs: 0 }, page, pageCookie);
      results.push({ path: page, ...scored, weight });
    }
    printReport(results, chromePath);
  } finally {
    chrome?.kill();
    await app?.stop();
  }
}

await main();
