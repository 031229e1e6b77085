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
 * values: on phones (320 and 390 px) nothing may scroll sideways, and at a phone's and a
 * desktop's width axe finds no WCAG 2.2 AA violation. Problems are gathered page by page and
 * reported together, so one run shows them all. Screenshots at 390 and 1280 px are kept in
 * test-results/screenshots for people to look at (from the js-on project: the pages are the same).
 *
 * Each page is visited once and looked at at every width: loaded at 320 px (the narrowest,
 * where the phone's axe check runs), then resized in place to 390 px and to 1280 px, as a
 * phone turned or a window resized would. The server sends the same markup at every width, so
 * a second visit per width would only repeat the page load, the registration and the login
 * (decision 0076).
 */
const PHONE_WIDTHS = [320, 390] as const;
const DESKTOP_WIDTH = 1280;
const HEIGHT = 844;

type Problem = { page: string; kind: string; detail: unknown };

async function checkPage(page: Page, sitePage: SitePage, testInfo: TestInfo, problems: Problem[], visit = true): Promise<void> {
  const [narrowest, ...widerPhones] = PHONE_WIDTHS;
  await page.setViewportSize({ width: narrowest, height: HEIGHT });
  if (visit) await page.goto(sitePage.path);
  await page.locator("h1").first().waitFor({ state: "attached" });
  await checkOverflow(page, sitePage, narrowest, problems);
  await checkAxe(page, sitePage, problems);
  for (const width of widerPhones) {
    await page.setViewportSize({ width, height: HEIGHT });
    await checkOverflow(page, sitePage, width, problems);
  }
  await screenshotForPeople(page, testInfo, `every-page/${sitePage.name}-${PHONE_WIDTHS.at(-1)}`, { fullPage: true });
  await page.setViewportSize({ width: DESKTOP_WIDTH, height: HEIGHT });
  await checkAxe(page, sitePage, problems);
  await screenshotForPeople(page, testInfo, `every-page/${sitePage.name}-${DESKTOP_WIDTH}`, { fullPage: true });
}

async function checkAxe(page: Page, sitePage: SitePage, problems: Problem[]): Promise<void> {
  const violations = await pageViolations(page);
  if (violations.length > 0) problems.push({ page: sitePage.name, kind: `axe at ${page.viewportSize()?.width}px`, detail: violations });
}

async function checkOverflow(page: Page, sitePage: SitePage, width: number, problems: Problem[]): Promise<void> {
  const overflow = await sidewaysOverflow(page);
  if (overflow > 0)
    problems.push({ page: sitePage.name, kind: `scrolls ${overflow}px sideways at ${width}px`, detail: await elementsPastTheEdge(page) });
}

test.describe("on a phone (320 and 390px) and a desktop (1280px)", () => {
  test.use({ viewport: { width: PHONE_WIDTHS[0], height: HEIGHT } });
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
  });

  test("every public page and registration screen, logged out", async ({ page }, testInfo) => {
    test.setTimeout(420_000);
    const problems: Problem[] = [];
    for (const sitePage of PUBLIC_PAGES) await checkPage(page, sitePage, testInfo, problems);

    const values = longestValues("reg");
    await startRegistration(page, values);
    for (const sitePage of REGISTRATION_PAGES) await checkPage(page, sitePage, testInfo, problems);
    // A refused profile form: its messages and error summary must fit and pass too.
    await page.getByRole("button", { name: "Create Agent Profile" }).click();
    await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();
    await checkPage(page, { name: "complete-profile-refused", path: "" }, testInfo, problems, false);

    expect(problems).toEqual([]);
  });

  test("every member page, logged in", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
    test.setTimeout(420_000);
    const site = seedMemberSite("w", seedAgent);
    await waitForReplica();
    await login(site.member);
    const problems: Problem[] = [];
    for (const sitePage of site.pages) await checkPage(page, sitePage, testInfo, problems);

    // A sent message with the longest values, then the thread as both sides see it.
    await page.goto(site.pages.find((p) => p.name === "messages-new")!.path);
    await page.getByRole("textbox", { name: "Message" }).fill(`${longestValues("msg").email} ${"wraps ".repeat(20)}`);
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(/conversation=/);
    await checkPage(page, { name: "messages-thread", path: "" }, testInfo, problems, false);

    // Public pages look different with a member logged in (header, directory buttons).
    for (const sitePage of PUBLIC_PAGES.filter((p) => !["member-login", "member-login-reason", "register"].includes(p.name))) {
      await checkPage(page, { ...sitePage, name: `${sitePage.name}-logged-in` }, testInfo, problems);
    }
    expect(problems).toEqual([]);
  });
});
