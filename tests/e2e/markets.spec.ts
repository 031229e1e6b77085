import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { agentRow } from "./support/registration";
import { uniqueToken } from "./support/requests";
import { screenshotForPeople } from "./support/screenshots";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** Saves edit profile: through the password dialog with JavaScript, the password field on the page without. */
async function saveProfile(page: Page, password: string, jsOn: boolean): Promise<void> {
  if (jsOn) {
    await expect(page.getByRole("heading", { name: "Confirm with your password" })).toHaveCount(0);
    await page.getByRole("button", { name: "Save Changes" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm your password" });
    await dialog.getByLabel("Password", { exact: true }).fill(password);
    await dialog.getByRole("button", { name: "Confirm and Save" }).click();
  } else {
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Save Changes" }).click();
  }
}

test.describe("markets served", () => {
  test("an agent lists the places they serve on a phone, and the directory finds them near a place on a desktop", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const jsOn = testInfo.project.name === "js-on";
    const password = "Markets-2026-password";
    const agent = seedAgent({ fullName: `Lena Lindale ${testInfo.project.name}`, city: "Dallas", password });
    await waitForReplica();
    await page.setViewportSize(PHONE);
    await login(agent, { password, then: "/edit-profile" });

    const firstPlace = page.getByLabel("Place 1", { exact: true });
    const secondPlace = page.getByLabel("Place 2", { exact: true });
    if (jsOn) {
      // Typing asks the server for suggestions, which the browser offers under the box.
      await firstPlace.pressSequentially("Lind");
      await expect(page.locator(`datalist option[value="Lindale, TX"]`)).toHaveCount(1);
      await firstPlace.fill("Lindale, TX");
      await secondPlace.fill("Tyler, TX");
    } else {
      // Without scripts the server matches what was typed and asks about what it cannot place.
      await firstPlace.fill("Lindale");
      await secondPlace.fill("Tyl");
      await saveProfile(page, password, jsOn);
      await expect(page.getByText("Did you mean Tyler, TX?")).toBeVisible();
      await expect(secondPlace).toHaveValue("Tyl");
      await expect(secondPlace).toHaveAttribute("aria-invalid", "true");
      await screenshotForPeople(page, testInfo, "markets-did-you-mean", { withoutScriptsToo: true });
      await secondPlace.fill("Tyler, TX");
    }
    await page.getByLabel("Radius").selectOption("50");
    await saveProfile(page, password, jsOn);
    await expect(page.getByRole("status")).toHaveText("Profile updated and refreshed successfully!");
    await expect(firstPlace).toHaveValue("Lindale, TX");
    await expect(secondPlace).toHaveValue("Tyler, TX");
    expect(agentRow(agent.email)?.agent).toMatchObject({ placesServed: ["Lindale, TX", "Tyler, TX"], serviceRadius: 50 });
    await screenshotForPeople(page, testInfo, "markets-edit-profile-390");

    await page.setViewportSize(DESKTOP);
    await page.goto("/member-directory");
    await page.getByLabel("Near a place").fill("Longview, TX");
    await page.getByLabel("Distance").selectOption("50");
    if (!jsOn) await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/near=Longview%2C\+TX/);
    await expect(page).toHaveURL(/miles=50/);
    const card = page.getByRole("article", { name: agent.fullName });
    await expect(card.getByText(/^3\d mi from Longview$/)).toBeVisible();
    await screenshotForPeople(page, testInfo, "markets-directory-1280");

    // A place the list does not hold: the message in the filter area, no error page.
    await page.goto("/member-directory?near=Longviw+Texs&miles=25");
    await expect(page.getByText(/^(Did you mean .*\?|We could not find .*)$/)).toBeVisible();
  });

  for (const viewport of [PHONE, DESKTOP]) {
    test(`"Did you mean" is one click on the places served and the directory's near box, at ${viewport.width} px`, async ({
      page,
      seedAgent,
      waitForReplica,
      login,
    }, testInfo) => {
      const jsOn = testInfo.project.name === "js-on";
      const password = "Markets-2026-password";
      const agent = seedAgent({ fullName: `Tia Tyler ${uniqueToken()}`, city: "Dallas", password });
      await waitForReplica();
      await page.setViewportSize(viewport);
      await login(agent, { password, then: "/edit-profile" });

      await page.getByLabel("City", { exact: true }).fill("Lindale");
      await page.getByLabel("Place 1", { exact: true }).fill("Lindale, TX");
      await page.getByLabel("Place 2", { exact: true }).fill("Tyl");
      await saveProfile(page, password, jsOn);
      await expect(page.getByText("Did you mean Tyler, TX?")).toBeVisible();
      await screenshotForPeople(page, testInfo, `did-you-mean-profile-${viewport.width}`);
      await page.getByRole("button", { name: "Use Tyler, TX" }).click();
      await expect(page.getByLabel("Place 2", { exact: true })).toHaveValue("Tyler, TX");
      await expect(page.getByLabel("Place 1", { exact: true })).toHaveValue("Lindale, TX");
      await expect(page.getByLabel("City", { exact: true })).toHaveValue("Lindale");
      await expect(page.getByText("Did you mean Tyler, TX?")).toHaveCount(0);
      await saveProfile(page, password, jsOn);
      await expect(page.getByRole("status")).toHaveText("Profile updated and refreshed successfully!");
      expect(agentRow(agent.email)?.agent).toMatchObject({ placesServed: ["Lindale, TX", "Tyler, TX"], city: "Lindale" });

      await page.goto("/member-directory?near=Tyl&miles=50");
      await expect(page.getByText("Did you mean Tyler, TX?")).toBeVisible();
      await screenshotForPeople(page, testInfo, `did-you-mean-directory-${viewport.width}`);
      await page.getByRole("button", { name: "Use Tyler, TX" }).click();
      await expect(page).toHaveURL(/near=Tyler%2C\+TX/);
      await expect(page).toHaveURL(/miles=50/);
      await expect(page.getByLabel("Near a place")).toHaveValue("Tyler, TX");
      await expect(page.getByRole("article", { name: agent.fullName })).toBeVisible();
    });
  }
});
