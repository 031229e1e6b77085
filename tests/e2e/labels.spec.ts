import { agentIdOf } from "../../app/domain/agent-id";
import { agentProfilePath } from "../../app/domain/directory-cards";
import { expect, test } from "./fixtures";
import { uniqueToken } from "./support/requests";
import { screenshotForPeople } from "./support/screenshots";

const WIDTHS = [390, 1280] as const;

test.describe("labels say what the page does", () => {
  // Each test logs in and loads its page at two widths.
  test.describe.configure({ timeout: 60_000 });

  test("the member directory's Sort by shows Distance while a place orders the results, and Name otherwise", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const token = uniqueToken();
    seedAgent({ fullName: `Nora Near ${token}`, city: "Tyler", placesServed: ["Tyler, TX"], serviceRadius: 25 });
    seedAgent({ fullName: `Fay Far ${token}`, city: "Lindale", placesServed: ["Lindale, TX"], serviceRadius: 25 });
    const viewer = seedAgent({ fullName: `Vic Viewer ${token}` });
    await waitForReplica();
    await login(viewer);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/member-directory");
      const sort = page.getByLabel("Sort by");
      await expect(sort.locator("option:checked")).toHaveText("Name");

      await page.getByLabel("Near a place").fill("Tyler, TX");
      if (testInfo.project.name === "js-off") await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/near=Tyler%2C\+TX/);
      await expect(sort.locator("option:checked")).toHaveText("Distance");
      await expect(sort.getByRole("option")).toHaveText(["Distance", "Best track record"]);
      // Nearest first: Nora serves Tyler itself, Fay serves Lindale, 13 miles off.
      await expect(page.getByRole("article").filter({ hasText: token }).getByRole("heading")).toHaveText([
        `Nora Near ${token}`,
        `Fay Far ${token}`,
      ]);
      await expect(page.getByRole("article", { name: `Fay Far ${token}` }).getByText("13 mi from Tyler")).toBeVisible();
      await sort.scrollIntoViewIfNeeded();
      await screenshotForPeople(page, testInfo, `directory-sort-distance-${width}`, { withoutScriptsToo: true });
    }
  });

  test("Edit Profile's broker fields say a referral needs them", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
    const agent = seedAgent({ brokerage: "", brokerLicenseNumber: "", brokerEmail: "" });
    await waitForReplica();
    await login(agent, { then: "/edit-profile" });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/edit-profile");
      await expect(page.getByRole("textbox", { name: /^Brokerage/ })).toHaveAccessibleDescription(
        "Your sponsoring broker's name. Needed to propose or sign a referral.",
      );
      await expect(page.getByLabel("Broker License Number")).toHaveAccessibleDescription(
        "Needed to propose or sign a referral: fees are paid broker to broker.",
      );
      await expect(page.getByLabel("Broker Email")).toHaveAccessibleDescription("Needed to propose or sign a referral.");
      await page.getByLabel("Broker License Number").scrollIntoViewIfNeeded();
      await screenshotForPeople(page, testInfo, `edit-profile-broker-hints-${width}`);
    }
  });

  test("an Oklahoma member's track record says staff checked the license with OREC, not 'check OREC'", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const okie = seedAgent({
      fullName: "Olive Sooner",
      state: "OK",
      city: "Tulsa",
      licenseState: "OK",
      licenseNumber: "187654",
      licenseCheck: "check OREC",
      licenseCheckedAt: "2026-11-02T15:00:00.000Z",
    });
    const viewer = seedAgent({ fullName: "Vera Viewer" });
    await waitForReplica();
    await login(viewer);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(agentProfilePath(agentIdOf(okie)));
      const card = page.getByRole("region", { name: "Track record" });
      await expect(card.getByText("Checked by staff in OREC's license search before approval")).toBeVisible();
      await expect(card.getByText("check OREC")).toHaveCount(0);
      await card.scrollIntoViewIfNeeded();
      await screenshotForPeople(page, testInfo, `track-record-oklahoma-${width}`);
    }
  });
});
