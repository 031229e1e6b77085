/**
 * `npm run bench:lighthouse`: Lighthouse's performance audit as a phone sees the app (mobile,
 * simulated slow 4G and a 4× slower CPU, Lighthouse's default) on the production build with
 * the demo network: as a visitor on the public pages (the home page, the directory, the login
 * page), and logged in as the demo member on /member-dashboard and on an open conversation.
 * Prints the score and FCP, LCP, TBT, CLS and the bytes transferred per page, then for the
 * member pages a second visit in one Chromium with the service worker installed: how many of
 * the build's files the worker served and the bytes of them that still crossed the network.
 * Not part of `npm test`; the figures go in docs/performance.md.
 *
 *   npm run bench:lighthouse
 *   npm run bench:lighthouse -- --runs 3        # each page audited 3 times, the median run kept
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROME_FLAGS, chromePath, startDemoApp, type DemoApp } from "./demo-app";

/** The targets: a visitor's pages are lighter than a member's. */
const TARGET_SCORE = { public: 98, member: 95 };
/** A visitor's pages, audited without the session cookie (the public ones come from the page cache). */
const PUBLIC_PAGES = ["/", "/directory", "/member-login"];
/** Each run's full report (git-ignored), for what cost the points. */
const REPORTS_DIR = path.resolve(import.meta.dirname, "results/lighthouse-phone");
const { values: args } = parseArgs({ options: { runs: { type: "string", default: "1" } } });
const RUNS = Math.max(1, Number(args.runs));

type PageFigures = { score: number; fcpMs: number; lcpMs: number; tbtMs: number; cls: number; transferKb: number };
type SecondVisit = { assets: number; fromWorker: number; firstVisitKb: number; secondVisitKb: number };

/** The first conversation on the demo member's Messages page: a thread open beside the list. */
async function conversationPath(baseUrl: string, cookie: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}/messages`, { headers: { Cookie: cookie } })).text();
  const href = /href="(\/messages\?conversation=[^"]+)"/.exec(html)?.[1];
  if (!href) throw new Error("The demo member has no conversation on /messages");
  return href.replaceAll("&amp;", "&");
}

/** Lighthouse's trace recording now and then fails on a loaded machine (NO_NAVSTART): such a run is tried again. */
async function lighthouseRun(url: string, port: number, cookie: string | undefined, attempt = 1): Promise<PageFigures> {
  try {
    const run = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      extraHeaders: cookie ? { Cookie: cookie } : {},
    });
    if (!run) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = run;
    if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
    mkdirSync(REPORTS_DIR, { recursive: true });
    writeFileSync(path.join(REPORTS_DIR, `${new URL(url).pathname.slice(1) || "home"}-${Date.now()}.json`), run.report as string);
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcpMs: metric("first-contentful-paint"),
      lcpMs: metric("largest-contentful-paint"),
      tbtMs: metric("total-blocking-time"),
      cls: metric("cumulative-layout-shift"),
      transferKb: metric("total-byte-weight") / 1024,
    };
  } catch (error) {
    if (attempt === 3) throw error;
    console.log(`  ${(error as Error).message}; trying again`);
    return lighthouseRun(url, port, cookie, attempt + 1);
  }
}

/** The median run by score, and every run's score: on a shared machine the spread says as much as the median. */
async function medianRun(url: string, port: number, cookie: string | undefined): Promise<PageFigures & { scores: number[] }> {
  const runs: PageFigures[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await lighthouseRun(url, port, cookie));
  const scores = runs.map((run) => run.score);
  runs.sort((a, b) => a.score - b.score);
  return { ...runs[Math.floor(runs.length / 2)]!, scores };
}

/** Loads `url` and adds up the build files it fetched: how many, how many the worker answered, and the bytes that crossed the network. */
async function assetLoad(page: Page, url: string): Promise<{ assets: number; fromWorker: number; networkBytes: number }> {
  const tally = { assets: 0, fromWorker: 0, networkBytes: 0 };
  const pending: Promise<void>[] = [];
  const count = (response: import("@playwright/test").Response) => {
    if (!new URL(response.url()).pathname.startsWith("/assets/")) return;
    tally.assets++;
    if (response.fromServiceWorker()) tally.fromWorker++;
    else
      pending.push(
        response
          .request()
          .sizes()
          .then((sizes) => void (tally.networkBytes += sizes.responseBodySize + sizes.responseHeadersSize)),
      );
  };
  page.on("response", count);
  await page.goto(url, { waitUntil: "networkidle" });
  page.off("response", count);
  await Promise.all(pending);
  return tally;
}

/** Two visits of `path` in one browser: the first installs the worker (and fills its cache), the second is served by it. */
async function secondVisit(app: DemoApp, pagePath: string): Promise<SecondVisit> {
  const browser = await chromium.launch({ executablePath: chromePath(), args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({ serviceWorkers: "allow", viewport: { width: 390, height: 844 } });
    await context.addCookies(
      app.cookie.split("; ").map((pair) => {
        const [name, ...value] = pair.split("=");
        return { name: name!, value: value.join("="), url: app.server.baseUrl };
      }),
    );
    const page = await context.newPage();
    const first = await assetLoad(page, app.server.baseUrl + pagePath);
    await page.waitForFunction(async () => (await navigator.serviceWorker.ready) && navigator.serviceWorker.controller !== null);
    const second = await assetLoad(page, app.server.baseUrl + pagePath);
    return {
      assets: second.assets,
      fromWorker: second.fromWorker,
      firstVisitKb: first.networkBytes / 1024,
      secondVisitKb: second.networkBytes / 1024,
    };
  } finally {
    await browser.close();
  }
}

/** A conversation's address is long: the table shows its start. */
const label = (pagePath: string) => (pagePath.length > 36 ? `${pagePath.slice(0, 35)}…` : pagePath);

type Audit = { pagePath: string; target: number; figures: PageFigures & { scores: number[] } };

function printRow({ pagePath, target, figures }: Audit): void {
  const mark = figures.score >= target ? "met" : "MISSED";
  const cells = [
    [label(pagePath), 40],
    [`${figures.score} ${mark}`, 12],
    [`${Math.round(figures.fcpMs)} ms`, 10],
    [`${Math.round(figures.lcpMs)} ms`, 10],
    [`${Math.round(figures.tbtMs)} ms`, 10],
    [figures.cls.toFixed(3), 8],
    [`${figures.transferKb.toFixed(1)} KB`, 12],
  ] as const;
  console.log(cells.map(([text, width]) => text.padEnd(width)).join("") + figures.scores.join(", "));
}

async function main(): Promise<void> {
  let app: DemoApp | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    app = await startDemoApp();
    const memberPages = ["/member-dashboard", await conversationPath(app.server.baseUrl, app.cookie)];
    chrome = await chromeLauncher.launch({ chromePath: chromePath(), chromeFlags: CHROME_FLAGS });
    const audits: Audit[] = [];
    for (const pagePath of PUBLIC_PAGES) {
      console.log(`Auditing ${pagePath} as a visitor...`);
      audits.push({
        pagePath,
        target: TARGET_SCORE.public,
        figures: await medianRun(app.server.baseUrl + pagePath, chrome.port, undefined),
      });
    }
    const secondVisits: Array<{ pagePath: string; again: SecondVisit }> = [];
    for (const pagePath of memberPages) {
      console.log(`Auditing ${pagePath}...`);
      audits.push({
        pagePath,
        target: TARGET_SCORE.member,
        figures: await medianRun(app.server.baseUrl + pagePath, chrome.port, app.cookie),
      });
      secondVisits.push({ pagePath, again: await secondVisit(app, pagePath) });
    }
    console.log(
      `\nLighthouse (mobile, simulated slow 4G), ${chromePath()}, ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, load average ${loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}, median of ${RUNS} run(s)`,
    );
    console.log(`Target: performance ≥ ${TARGET_SCORE.public} on a visitor's pages, ≥ ${TARGET_SCORE.member} on a member's\n`);
    console.log(
      `${"page".padEnd(40)}${"score".padEnd(12)}${"FCP".padEnd(10)}${"LCP".padEnd(10)}${"TBT".padEnd(10)}${"CLS".padEnd(8)}${"transferred".padEnd(12)}every run's score`,
    );
    for (const audit of audits) printRow(audit);
    console.log("\nSecond visit with the service worker installed (build files under /assets/):");
    for (const { pagePath, again } of secondVisits) {
      console.log(
        `${label(pagePath).padEnd(40)}${again.fromWorker} of ${again.assets} from the worker; over the network ${again.firstVisitKb.toFixed(1)} KB on the first visit, ${again.secondVisitKb.toFixed(1)} KB on the second`,
      );
    }
  } finally {
    chrome?.kill();
    await app?.stop();
  }
}

await main();
