import type { Page, TestInfo } from "@playwright/test";
import {
  elementsPastTheEdge,
  longestValues,
  PUBLIC_PAGES,
  REGISTRATION_PAGES,
  seedMemberSite,
  sidewaysOverflow,
  startRegistration,
  type SitePage,
} from "./support/site-pages";
import { expect, test } from "./fixtures";
import { pageViolations } from "./support/test";
import { screenshotForPeople } from "./support/screenshots";

/**
 * Every page of the site, logged out and logged in, filled with the longest realistic
 * values: on phones (320 and 390 px) nothing may scroll sideways, and at every width
 * axe finds no WCAG 2.2 AA violation. Problems are gathered page by page and reported
 * together, so one run shows them all. Screenshots at 390 and 1280 px are kept in
 * test-results/screenshots for people to look at (from the js-on project: the pages are the same).
 */
const widths = [320, 390, 1280];

type Problem = { page: string; kind: string; detail: unknown };

async function checkPage(
  page: Page,
  sitePage: SitePage,
  width: number,
  testInfo: TestInfo,
  problems: Problem[],
  visit = true,
): Promise<void> {
  if (visit) await page.goto(sitePage.path);
  await page.locator("h1").first().waitFor({ state: "attached" });
  if (width < 768) {
    const overflow = await sidewaysOverflow(page);
    if (overflow > 0)
      problems.push({ page: sitePage.name, kind: `scrolls ${overflow}px sideways`, detail: await elementsPastTheEdge(page) });
  }
  const violations = await pageViolations(page);
  if (violations.length > 0) problems.push({ page: sitePage.name, kind: "axe", detail: violations });
  if (width !== 320) await screenshotForPeople(page, testInfo, `every-page/${sitePage.name}-${width}`, { fullPage: true });
}

for (const width of widths) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 844 } });
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
    });

    test("every public page and registration screen, logged out", async ({ page }, testInfo) => {
      test.setTimeout(300_000);
      const problems: Problem[] = [];
      for (const sitePage of PUBLIC_PAGES) await checkPage(page, sitePage, width, testInfo, problems);

      const values = longestValues(`reg${width}`);
      await startRegistration(page, values);
      for (const sitePage of REGISTRATION_PAGES) await checkPage(page, sitePage, width, testInfo, problems);
      // A refused profile form: its messages and error summary must fit and pass too.
      await page.getByRole("button", { name: "Create Agent Profile" }).click();
      await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();
      await checkPage(page, { name: "complete-profile-refused", path: "" }, width, testInfo, problems, false);

      expect(problems).toEqual([]);
    });

    test("every member page, logged in", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
      test.setTimeout(300_000);
      const site = seedMemberSite(`w${width}`, seedAgent);
      await waitForReplica();
      await login(site.member);
      const problems: Problem[] = [];
      for (const sitePage of site.pages) await checkPage(page, sitePage, width, testInfo, problems);

      // A sent message with the longest values, then the thread as both sides see it.
      await page.goto(site.pages.find((p) => p.name === "messages-new")!.path);
      await page.getByRole("textbox", { name: "Message" }).fill(`${longestValues("msg").email} ${"wraps ".repeat(20)}`);
      await page.getByRole("button", { name: "Send" }).click();
      await expect(page).toHaveURL(/conversation=/);
      await checkPage(page, { name: "messages-thread", path: "" }, width, testInfo, problems, false);

      // Public pages look different with a member logged in (header, directory buttons).
      for (const sitePage of PUBLIC_PAGES.filter((p) => !["member-login", "member-login-reason", "register"].includes(p.name))) {
        await checkPage(page, { ...sitePage, name: `${sitePage.name}-logged-in` }, width, testInfo, problems);
      }
      expect(problems).toEqual([]);
    });
  });
}
