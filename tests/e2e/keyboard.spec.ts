import { focusIsVisible, tabTo } from "./support/keyboard";
import { seedRequests, storedRequest, testRequest, uniqueToken } from "./support/requests";
import { expect, MEMBER_PASSWORD, test } from "./fixtures";
import { expectNoAxeViolations } from "./support/test";

test("a member logs in and out by keyboard alone, focus visible at every stop", async ({ page, seedAgent, waitForReplica }) => {
  const member = seedAgent({ fullName: "Kim Keyboard" });
  await waitForReplica();
  await page.goto("/member-login");

  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
  await expect(page.getByRole("link", { name: "Skip to main content" })).toBeVisible();

  await tabTo(page, page.getByLabel("Email Address"));
  await page.keyboard.type(member.email);
  await tabTo(page, page.getByLabel("Password"));
  await page.keyboard.type(MEMBER_PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/member-dashboard/);
  await expectNoAxeViolations(page);

  // From the top of a freshly loaded page, the header's Logout comes within a few stops.
  await page.goto("/member-dashboard");
  const logout = page
    .getByRole("banner")
    .getByRole("button", { name: /Logout|Log out/ })
    .first();
  await tabTo(page, logout, { maxStops: 20 });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
});

test("every Tab stop on the dashboard shows where focus is", async ({ page, seedAgent, waitForReplica, login }) => {
  const member = seedAgent({ fullName: "Tess Tabstop" });
  const other = seedAgent({ fullName: "Omar Otherposter" });
  seedRequests([testRequest(other, { title: "Lakefront lot near Durant" }), testRequest(member, { title: "Ranch buyer in Ada" })]);
  await waitForReplica();
  await login(member);
  await page.goto("/member-dashboard");
  const stops: string[] = [];
  for (let stop = 1; stop <= 120; stop += 1) {
    await page.keyboard.press("Tab");
    const described = await page.evaluate(() => {
      const element = document.activeElement;
      return element && element !== document.body ? `${element.tagName} ${element.textContent?.trim().slice(0, 40) ?? ""}` : "";
    });
    if (!described || stops.includes(`1 ${described}`)) break;
    stops.push(`${stop} ${described}`);
    expect(await focusIsVisible(page), `focus visible on stop ${stop}: ${described}`).toBe(true);
  }
  expect(stops.length).toBeGreaterThan(10);
});

test("the phone menu and the live regions have names screen readers announce", async ({ page, seedAgent, waitForReplica, login }) => {
  const member = seedAgent({ fullName: "Lia Liveregion" });
  await waitForReplica();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(page.getByLabel("Menu")).toBeVisible();
  await login(member);
  // The new-requests banner is announced when it appears.
  await expect(page.locator("#live-requests [role=status][aria-live=polite]")).toHaveCount(1);
  // Every icon button and link has a name: axe's button-name and link-name rules.
  await expectNoAxeViolations(page);
});

test("the delete confirmation opens with focus on Cancel, so Enter keeps the request", async ({
  page,
  seedAgent,
  waitForReplica,
  login,
}) => {
  const owner = seedAgent({ fullName: "Cora Cancel" });
  const token = uniqueToken();
  const request = testRequest(owner, { title: `${token} kept` });
  seedRequests([request]);
  await waitForReplica();
  await login(owner, { then: `/referral-requests?tab=mine&q=${token}` });

  await tabTo(page, page.getByRole("link", { name: `Delete ${token} kept` }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Are you sure you want to delete this request?")).toBeVisible();
  const cancel = page.getByRole("main").getByRole("link", { name: "Cancel" });
  await expect(cancel).toBeFocused();
  expect(await focusIsVisible(page), "focus visible on Cancel").toBe(true);
  // The destructive button is one Shift+Tab away, and shows its focus too.
  await tabTo(page, page.getByRole("button", { name: "Delete Request" }), { backwards: true, maxStops: 1 });

  await tabTo(page, cancel, { maxStops: 1 });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Agent Requests" })).toBeVisible();
  expect(storedRequest(request.id)?.status).toBe("active");
});
