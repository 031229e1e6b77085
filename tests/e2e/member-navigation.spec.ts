import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { seedReferral } from "./support/referrals";

/** Whether an element shows all of its text: nothing cut off or ended with an ellipsis. */
const showsAllText = (element: Locator) => element.evaluate((node) => node.scrollWidth <= node.clientWidth);

/** The element's height in lines of its own text. */
const lines = (element: Locator) =>
  element.evaluate((node) => Math.round(node.getBoundingClientRect().height / parseFloat(getComputedStyle(node).lineHeight)));

test.describe("a member's way around", () => {
  test("My Referrals is in the header with the open count, and in the phone menu", async ({ page, seedAgent, waitForReplica, login }) => {
    const member = seedAgent({ fullName: "Nora Navigation" });
    const other = seedAgent({ fullName: "Otis Other" });
    seedReferral(member, other, { status: "signed" });
    seedReferral(other, member, { status: "under_contract" });
    seedReferral(member, other, { status: "lost" });
    await waitForReplica();
    await login(member, { then: "/directory" });

    const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /My Referrals/ });
    await expect(link).toHaveAccessibleName("My Referrals 2 open");
    await link.click();
    await expect(page).toHaveURL(/\/referrals$/);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /My Referrals/ })).toHaveAttribute(
      "aria-current",
      "page",
    );

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/directory");
    await page.getByLabel("Menu").click();
    const phoneLink = page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: /My Referrals/ });
    await expect(phoneLink).toHaveAccessibleName("My Referrals 2 open");
    await phoneLink.click();
    await expect(page).toHaveURL(/\/referrals$/);
  });

  test("the dashboard's header keeps its settings in one tidy row at 390 px", async ({ page, asWorkerMember }) => {
    await asWorkerMember();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/member-dashboard");
    const settings = page.getByRole("navigation", { name: "Account settings" });
    for (const name of ["Edit Profile", "Notification Settings", "Blocked members"]) {
      const link = settings.getByRole("link", { name });
      await expect(link).toBeVisible();
      expect({ name, lines: await lines(link) }).toEqual({ name, lines: 1 });
    }
    await expect(page.getByRole("main").getByRole("button", { name: "Logout" })).toBeVisible();
    await settings.getByRole("link", { name: "Notification Settings" }).click();
    await expect(page.getByRole("heading", { name: "Notification Settings" })).toBeVisible();
  });

  test("a conversation's header shows the partner's whole name and brokerage at 320 px", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const member = seedAgent({ fullName: "Pat Phone" });
    const partner = seedAgent({
      fullName: "Sarah Whitfield-Montgomery",
      brokerage: "Redbud Realty Group of Oklahoma",
      city: "Tulsa",
      state: "OK",
    });
    await waitForReplica();
    await page.setViewportSize({ width: 320, height: 640 });
    await login(member, { then: `/messages?to=${partner.id}` });

    const name = page.getByRole("heading", { level: 2, name: partner.fullName });
    await expect(name).toBeVisible();
    expect(await showsAllText(name)).toBe(true);
    const details = page.getByText("Redbud Realty Group of Oklahoma · Tulsa, OK");
    await expect(details).toBeVisible();
    expect(await showsAllText(details)).toBe(true);

    const nameBox = (await name.boundingBox())!;
    for (const action of [
      page.getByRole("link", { name: "View Profile" }),
      page.getByRole("button", { name: `Block ${partner.fullName}` }),
    ]) {
      await expect(action).toBeVisible();
      const box = (await action.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(320);
      expect(box.y >= nameBox.y + nameBox.height || box.x >= nameBox.x + nameBox.width).toBe(true);
    }
  });
});
