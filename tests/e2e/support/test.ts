import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export { expect };

/** The WCAG 2.2 AA rule set: every A and AA rule of WCAG 2.0, 2.1 and 2.2. */
const WCAG_22_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

type Violation = { id: string; help: string; targets: string[] };

/** A check still running after this long on a busy machine is given up rather than holding up the page's next one. */
const AXE_TIME_LIMIT_MS = 30_000;
const AXE_TIMED_OUT = "The accessibility check timed out";

/** Axe runs one check at a time in a page: each page's checks wait for the one before. */
const runningChecks = new WeakMap<Page, Promise<unknown>>();

/** The violations axe finds in a page that runs scripts, under the WCAG 2.2 AA tags. */
async function analyze(page: Page): Promise<Violation[]> {
  // Only violations are collected: axe skips the work of listing what passed. Legacy mode runs
  // axe once in the page itself; the default runs it per frame and again in a blank page it
  // opens to merge the frames' results, close to twice the time, for cross-origin frames
  // the site does not have.
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_22_AA_TAGS)
    .options({ resultTypes: ["violations"] })
    .setLegacyMode()
    .analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
}

/**
 * One page per browser, with scripts on, where the pages served with JavaScript off are
 * checked, one at a time: opened once, as a page costs more to open than a check to run.
 */
const checkingPages = new WeakMap<object, { page: Promise<Page>; queue: Promise<unknown> }>();

function checkingPage(page: Page): { page: Promise<Page>; queue: Promise<unknown> } {
  const browser = page.context().browser();
  if (!browser) throw new Error("The page has no browser to open a checking page in");
  let checking = checkingPages.get(browser);
  if (!checking) {
    const viewport = page.viewportSize() ?? undefined;
    const opened = browser.newContext({ javaScriptEnabled: true, viewport }).then((context) => context.newPage());
    checking = { page: opened, queue: Promise.resolve() };
    checkingPages.set(browser, checking);
  }
  return checking;
}

/**
 * Axe cannot run in a page whose scripts are off (its checks never finish there), so
 * the page's markup is checked in a page with scripts on: the same markup, its `<script>`
 * elements removed so the copy is what a browser without JavaScript shows, and a `<base>`
 * of the page's address so its stylesheet loads (colour contrast depends on it).
 */
async function analyzeWithoutScripts(page: Page): Promise<Violation[]> {
  // Read in the page itself: evaluating is not running the page's own scripts.
  const markup = await page.evaluate(() => {
    // Between a navigation's commit and its first parsed byte the page has no root element: the page it was is gone.
    const root = document.documentElement as HTMLElement | null;
    if (root === null) throw new Error("The page navigated: its new document has no markup yet");
    const copy = root.cloneNode(true) as HTMLElement;
    copy.querySelectorAll("script").forEach((script) => script.remove());
    const base = document.createElement("base");
    base.href = location.href;
    copy.querySelector("head")?.prepend(base);
    return `<!DOCTYPE html>${copy.outerHTML}`;
  });
  const viewport = page.viewportSize();
  const checking = checkingPage(page);
  const check = async () => {
    const copy = await checking.page;
    if (viewport) await copy.setViewportSize(viewport);
    await copy.setContent(markup, { waitUntil: "load" });
    return analyze(copy);
  };
  const run = checking.queue.then(check, check);
  checking.queue = run.catch(() => undefined);
  return run;
}

/** The page's axe violations under the WCAG 2.2 AA tags, each with the elements it names. */
export function axeViolations(page: Page): Promise<Violation[]> {
  const check = () => (javaScriptOn ? analyze(page) : analyzeWithoutScripts(page));
  const run = (runningChecks.get(page) ?? Promise.resolve()).then(check, check);
  const limited = Promise.race([
    run,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(AXE_TIMED_OUT)), AXE_TIME_LIMIT_MS)),
  ]);
  runningChecks.set(
    page,
    limited.catch(() => undefined),
  );
  return limited;
}

/**
 * What makes one page look different from another for the checks: its route (ids
 * left out), whether a member is logged in, whether a form was refused, and phone or
 * desktop width. Each such page is checked once per run and the answer reused (by every
 * worker: see sharedCheck), which keeps the suite's time close to what it was.
 */
function pageStateKey(page: Page): Promise<string> {
  return page.evaluate(() => {
    const route = location.pathname
      .split("/")
      .map((segment) => (/\d/.test(segment) || segment.length > 24 ? ":id" : segment))
      .join("/");
    const params = [...new URLSearchParams(location.search).keys()].sort().join(",");
    const loggedIn = document.querySelector('form[action="/logout"]') !== null;
    const refused = document.querySelector('[aria-invalid="true"], [role="alert"]') !== null;
    const phone = window.innerWidth < 768;
    return [route, params, loggedIn, refused, phone].join("|");
  });
}

const checks = new Map<string, Promise<Violation[]>>();

/** False in the js-off project: its pages are checked through a copy (analyzeWithoutScripts). */
let javaScriptOn = true;

/** Where the workers of this run leave their answers: in the output folder, which Playwright empties when a run starts. */
let sharedChecksDir = "";

/**
 * The answer of the run's check of one kind of page: another worker's when it checked it (or
 * is checking it: its answer is waited for), otherwise `check`'s, left for the others. A
 * check that fails is not kept, so the next page of the kind is checked again.
 */
async function sharedCheck(key: string, check: () => Promise<Violation[]>): Promise<Violation[]> {
  mkdirSync(sharedChecksDir, { recursive: true });
  const file = path.join(sharedChecksDir, createHash("sha256").update(key).digest("hex"));
  const deadline = Date.now() + AXE_TIME_LIMIT_MS;
  while (!existsSync(`${file}.json`)) {
    try {
      closeSync(openSync(`${file}.lock`, "wx"));
    } catch {
      // Another worker is checking this kind of page.
      if (Date.now() > deadline) return check();
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      const violations = await check();
      writeFileSync(`${file}.tmp`, JSON.stringify(violations));
      renameSync(`${file}.tmp`, `${file}.json`);
      return violations;
    } catch (error) {
      rmSync(`${file}.lock`, { force: true });
      throw error;
    }
  }
  return JSON.parse(readFileSync(`${file}.json`, "utf8")) as Violation[];
}

/**
 * The page's WCAG 2.2 AA violations, from this run's earlier check of the same kind of page
 * when there was one. A check cut short because the page moved on (an earlier check of the
 * kind, begun as the test navigated) is made again on the page as it now is.
 */
export async function pageViolations(page: Page): Promise<Violation[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await violationsOfKind(page);
    } catch (error) {
      if (!isGoneError(error) || attempt === 3 || page.isClosed()) throw error;
    }
  }
}

/** The check of the page's kind of page: this run's earlier one, or a new one. */
async function violationsOfKind(page: Page): Promise<Violation[]> {
  const address = page.url();
  const key = `${await pageStateKey(page)}|${javaScriptOn ? "js" : "no-js"}`;
  let check = checks.get(key);
  if (!check) {
    check = sharedCheck(key, () => violationsOfUnchangedPage(page, address));
    checks.set(key, check);
    // A check cut short by a navigation is tried again on the next page of its kind.
    check.catch(() => checks.delete(key));
  }
  return check;
}

/**
 * The violations of the page at `address`, refused when the page has moved on by the time axe has read it:
 * what was read then belongs to neither page, and must not stand for this kind of page.
 */
async function violationsOfUnchangedPage(page: Page, address: string): Promise<Violation[]> {
  const violations = await axeViolations(page);
  if (page.url() !== address) throw new Error(`The page navigated from ${address} during its check`);
  return violations;
}

/** Fails the test with every WCAG 2.2 AA violation axe finds on the page as it is now. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  expect(await pageViolations(page), `accessibility violations on ${page.url()}`).toEqual([]);
}

/**
 * A navigation replaced the page while axe was reading it (nothing is left to check, and
 * a new document has no axe in it: "reading 'run'" or "'runPartial'" of an undefined `axe`), or the check
 * ran out of time: the page is checked on its next visit, and every page is checked for
 * certain by every-page.spec.ts.
 */
function isGoneError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return (
    message === AXE_TIMED_OUT ||
    /Execution context was destroyed|Target page, context or browser has been closed|Frame was detached|navigat|reading '(runPartial|run)'/i.test(
      message,
    )
  );
}

/**
 * Runs axe on every page of a site the test's browser context shows: after each
 * navigation (document loads and, with JavaScript, client-side ones) and once more on
 * what is on screen when the test ends. Pages the test leaves before the check ends
 * are skipped, and so are pages that are not of the site (about:blank, a download).
 */
function checkPagesAsTheyLoad(page: Page, record: (found: string) => void): () => Promise<void> {
  let queue = Promise.resolve();
  const check = async () => {
    try {
      if (page.isClosed() || !page.url().startsWith("http")) return;
      await page.waitForLoadState("load");
      // A client-side navigation changes the address as React renders the new page.
      await page.waitForTimeout(50);
      const url = page.url();
      const violations = await violationsOfKind(page);
      if (violations.length > 0) record(`${url}\n${JSON.stringify(violations, null, 2)}`);
    } catch (error) {
      if (!isGoneError(error)) throw error;
    }
  };
  const onNavigated = (frame: unknown) => {
    if (frame === page.mainFrame()) queue = queue.then(check);
  };
  page.on("framenavigated", onNavigated);
  return async () => {
    page.off("framenavigated", onNavigated);
    queue = queue.then(check);
    await queue;
  };
}

/**
 * The e2e tests' `test`: Playwright's, with the accessibility check above on every
 * page of the test's own browser context. Specs import `test` and `expect` from here.
 */
export const test = base.extend<{ axeEveryPage: void }>({
  axeEveryPage: [
    async ({ context, javaScriptEnabled }, use, testInfo) => {
      javaScriptOn = javaScriptEnabled;
      sharedChecksDir = path.join(testInfo.project.outputDir, "axe-checks");
      const found = new Set<string>();
      const finishers: Array<() => Promise<void>> = [];
      const watch = (page: Page) => finishers.push(checkPagesAsTheyLoad(page, (violation) => found.add(violation)));
      context.pages().forEach(watch);
      context.on("page", watch);
      await use();
      context.off("page", watch);
      for (const finish of finishers) await finish();
      expect([...found], "WCAG 2.2 AA violations (axe)").toEqual([]);
    },
    // Its own time limit: the checks after the test's last step do not eat into the test's.
    { auto: true, timeout: 120_000 },
  ],
});
