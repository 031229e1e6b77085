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
 *
 * A phone page is visited once and looked at in both phone widths: loaded at 320 px (the
 * narrowest, and where axe runs), then widened to 390 px in place, as a phone turned or
 * a window resized would, for the second overflow check and the screenshot.
 */
type Layout = { name: string; widths: readonly number[] };
const layouts: readonly Layout[] = [
  { name: "phone (320 and 390px)", widths: [320, 390] },
  { name: "desktop (1280px)", widths: [1280] },
];

type Problem = { page: string; kind: string; detail: unknown };

async function checkPage(
  page: Page,
  sitePage: SitePage,
  layout: Layout,
  testInfo: TestInfo,
  problems: Problem[],
  visit = true,
): Promise<void> {
  const [firstWidth, ...laterWidths] = layout.widths;
  await page.setViewportSize({ width: firstWidth!, height: 844 });
  if (visit) await page.goto(sitePage.path);
  await page.locator("h1").first().waitFor({ state: "attached" });
  await checkOverflow(page, sitePage, firstWidth!, problems);
  const violations = await pageViolations(page);
  if (violations.length > 0) problems.push({ page: sitePage.name, kind: "axe", detail: violations });
  for (const width of laterWidths) {
    await page.setViewportSize({ width, height: 844 });
    await checkOverflow(page, sitePage, width, problems);
  }
  const lastWidth = layout.widths.at(-1)!;
  await screenshotForPeople(page, testInfo, `every-page/${sitePage.name}-${lastWidth}`, { fullPage: true });
}

async function checkOverflow(page: Page, sitePage: SitePage, width: number, problems: Problem[]): Promise<void> {
  if (width >= 768) return;
  const overflow = await sidewaysOverflow(page);
  if (overflow > 0)
    problems.push({ page: sitePage.name, kind: `scrolls ${overflow}px sideways at ${width}px`, detail: await elementsPastTheEdge(page) });
}

for (const layout of layouts) {
  test.describe(`on a ${layout.name}`, () => {
    test.use({ viewport: { width: layout.widths[0]!, height: 844 } });
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
    });

    test("every public page and registration screen, logged out", async ({ page }, testInfo) => {
      test.setTimeout(300_000);
      const problems: Problem[] = [];
      for (const sitePage of PUBLIC_PAGES) await checkPage(page, sitePage, layout, testInfo, problems);

      const values = longestValues(`reg${layout.widths[0]}`);
      await startRegistration(page, values);
      for (const sitePage of REGISTRATION_PAGES) await checkPage(page, sitePage, layout, testInfo, problems);
      // A refused profile form: its messages and error summary must fit and pass too.
      await page.getByRole("button", { name: "Create Agent Profile" }).click();
      await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();
      await checkPage(page, { name: "complete-profile-refused", path: "" }, layout, testInfo, problems, false);

      expect(problems).toEqual([]);
    });

    test("every member page, logged in", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
      test.setTimeout(300_000);
      const site = seedMemberSite(`w${layout.widths[0]}`, seedAgent);
      await waitForReplica();
      await login(site.member);
      const problems: Problem[] = [];
      for (const sitePage of site.pages) await checkPage(page, sitePage, layout, testInfo, problems);

      // A sent message with the longest values, then the thread as both sides see it.
      await page.goto(site.pages.find((p) => p.name === "messages-new")!.path);
      await page.getByRole("textbox", { name: "Message" }).fill(`${longestValues("msg").email} ${"wraps ".repeat(20)}`);
      await page.getByRole("button", { name: "Send" }).click();
      await expect(page).toHaveURL(/conversation=/);
      await checkPage(page, { name: "messages-thread", path: "" }, layout, testInfo, problems, false);

      // Public pages look different with a member logged in (header, directory buttons).
      for (const sitePage of PUBLIC_PAGES.filter((p) => !["member-login", "member-login-reason", "register"].includes(p.name))) {
        await checkPage(page, { ...sitePage, name: `${sitePage.name}-logged-in` }, layout, testInfo, problems);
      }
      expect(problems).toEqual([]);
    });
  });
}
