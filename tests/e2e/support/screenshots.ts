import type { Page, TestInfo } from "@playwright/test";

type ShotOptions = {
  fullPage?: boolean;
  /** Also in the js-off project (named `…-js-off`), for a page that looks different without scripts. */
  withoutScriptsToo?: boolean;
};

/**
 * Runs by hand keep screenshots; CI, whose clone is thrown away, takes them only when asked
 * (`SCREENSHOTS=1`): no assertion depends on them, and a full-page shot of every page costs
 * the suite time on two cores.
 */
const peopleLook = process.env.SCREENSHOTS === "1" || !process.env.CI;

/**
 * Saves a screenshot in test-results/screenshots/ for people to look at; no test compares
 * it. The server sends the same page whether scripts run or not, so it is taken in the js-on
 * project only, unless the page looks different without scripts.
 */
export async function screenshotForPeople(page: Page, testInfo: TestInfo, name: string, options: ShotOptions = {}): Promise<void> {
  const jsOn = testInfo.project.name === "js-on";
  if (!peopleLook || (!jsOn && !options.withoutScriptsToo)) return;
  const suffix = jsOn ? "" : `-${testInfo.project.name}`;
  await page.screenshot({ path: `test-results/screenshots/${name}${suffix}.png`, fullPage: options.fullPage ?? false });
}
