import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { agentRow, jpegFile, renamedTextFile, uniqueEmail } from "./support/registration";
import { lookAtEachWidth } from "./support/widths";

const PASSWORD = "Edit-Profile-2025";
const NAME = "Casey Morgan";

/** Saves the form: through the dialog when JavaScript runs, with the password field on the page when it does not. */
async function saveWithPassword(page: Page, password: string, jsOn: boolean): Promise<void> {
  if (jsOn) {
    // The password field on the page gives way to the dialog once React runs: wait for that before clicking.
    await expect(page.getByRole("heading", { name: "Confirm with your password" })).toHaveCount(0);
    await page.getByRole("button", { name: "Save Changes" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm your password" });
    await expect(dialog).toBeVisible();
    const confirm = dialog.getByRole("button", { name: "Confirm and Save" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel("Password", { exact: true }).fill(password);
    await expect(confirm).toBeEnabled();
    await confirm.click();
  } else {
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Save Changes" }).click();
  }
}

test.describe("edit profile", () => {
  test("needs a login", async ({ page }) => {
    await page.goto("/edit-profile");
    await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fedit-profile$/);
  });

  test("saves changes after the password step and shows the success banner", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const jsOn = testInfo.project.name === "js-on";
    const email = uniqueEmail("edit", testInfo.project.name);
    seedAgent({ fullName: NAME, email, password: PASSWORD });
    await waitForReplica();
    await login({ email }, { password: PASSWORD });
    await page.goto("/edit-profile");

    await expect(page.getByLabel("Full Name")).toHaveValue("Casey Morgan");
    await page.getByLabel("City").fill("Tulsa");
    await page.getByLabel("State").selectOption("OK");
    await page.getByLabel("Phone").fill("918 555 0142");
    await page.getByLabel("Auction").check();
    await page.getByLabel("Residential", { exact: true }).uncheck();
    await page.getByLabel("Professional Bio").fill("Ranches and auctions around Tulsa.");
    await saveWithPassword(page, PASSWORD, jsOn);

    await expect(page.getByRole("status")).toHaveText("Profile updated and refreshed successfully!");
    await expect(page.getByLabel("City")).toHaveValue("Tulsa");
    await expect(page.getByLabel("Phone")).toHaveValue("(918) 555-0142");
    await expect(page.getByLabel("Auction")).toBeChecked();
    expect(agentRow(email)?.agent).toMatchObject({
      city: "Tulsa",
      state: "OK",
      phone: "(918) 555-0142",
      specialties: ["Auction"],
      bio: "Ranches and auctions around Tulsa.",
    });
    // The banner shows once: the address names no outcome, and a reload shows the saved profile alone.
    expect(new URL(page.url()).search).toBe("");
    await page.reload();
    await expect(page.getByLabel("City")).toHaveValue("Tulsa");
    await expect(page.getByRole("status")).toHaveCount(0);
  });

  test("a wrong password saves nothing and keeps the edits on the page", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
    const jsOn = testInfo.project.name === "js-on";
    const email = uniqueEmail("wrong", testInfo.project.name);
    seedAgent({ fullName: NAME, email, password: PASSWORD });
    await waitForReplica();
    await login({ email }, { password: PASSWORD });
    await page.goto("/edit-profile");

    await page.getByLabel("City").fill("Norman");
    await saveWithPassword(page, "not my password", jsOn);
    await expect(page.getByText("Failed to save profile changes. Please check your password and try again.")).toBeVisible();
    await expect(page.getByLabel("City")).toHaveValue("Norman");
    expect(agentRow(email)?.agent.city).toBe("Dallas");
  });

  test("without a password nothing is saved", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
    const email = uniqueEmail("nopass", testInfo.project.name);
    seedAgent({ fullName: NAME, email, password: PASSWORD });
    await waitForReplica();
    await login({ email }, { password: PASSWORD });
    await page.goto("/edit-profile");
    await page.getByLabel("City").fill("Lawton");
    if (testInfo.project.name === "js-on") {
      // The dialog's confirm button is disabled while the password is empty.
      await expect(page.getByRole("heading", { name: "Confirm with your password" })).toHaveCount(0);
      await page.getByRole("button", { name: "Save Changes" }).click();
      const dialog = page.getByRole("dialog", { name: "Confirm your password" });
      const confirm = dialog.getByRole("button", { name: "Confirm and Save" });
      await expect(confirm).toBeDisabled();
      await dialog.getByLabel("Password", { exact: true }).fill("x");
      await expect(confirm).toBeEnabled();
      await dialog.getByLabel("Password", { exact: true }).fill("");
      await expect(confirm).toBeDisabled();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toBeHidden();
    } else {
      await page.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByText("Password is required for authentication")).toBeVisible();
      await expect(page.getByLabel("City")).toHaveValue("Lawton");
    }
    expect(agentRow(email)?.agent.city).toBe("Dallas");
  });

  test("a photo can be uploaded, a renamed text file cannot, and links must be https", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const jsOn = testInfo.project.name === "js-on";
    const email = uniqueEmail("photo", testInfo.project.name);
    seedAgent({ fullName: NAME, email, password: PASSWORD });
    await waitForReplica();
    await login({ email }, { password: PASSWORD });
    await page.goto("/edit-profile");

    await page.getByLabel("Photo URL").fill("http://images.example/me.jpg");
    await saveWithPassword(page, PASSWORD, jsOn);
    await expect(page.getByText("Please enter an image URL starting with https://")).toBeVisible();

    await page.getByLabel("Photo URL").fill("");
    await page.getByLabel("Upload a New Photo").setInputFiles(renamedTextFile());
    await saveWithPassword(page, PASSWORD, jsOn);
    await expect(page.getByText("Please upload a JPG, PNG, or WebP image")).toBeVisible();

    await page.getByLabel("Upload a New Photo").setInputFiles(await jpegFile());
    await saveWithPassword(page, PASSWORD, jsOn);
    await expect(page.getByRole("status")).toHaveText("Profile updated and refreshed successfully!");
    const photoUrl = agentRow(email)?.agent.photoUrl ?? "";
    expect(photoUrl).toMatch(/^\/uploads\/profile-[0-9a-f-]+\.jpg$/);
    await expect(page.getByRole("img", { name: "Your current profile" })).toHaveAttribute("src", photoUrl);
  });

  test("screens on a phone and a desktop", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
    const jsOn = testInfo.project.name === "js-on";
    const email = uniqueEmail("shots", testInfo.project.name);
    seedAgent({
      fullName: NAME,
      email,
      password: PASSWORD,
      bio: "Twenty years selling ranches along the Red River.",
      specialties: ["Farm and Ranch", "Land"],
    });
    await waitForReplica();
    await login({ email }, { password: PASSWORD });
    await page.goto("/edit-profile");
    if (jsOn) await expect(page.getByRole("heading", { name: "Confirm with your password" })).toHaveCount(0);
    // Without scripts the page shows its password section instead of the dialog.
    await lookAtEachWidth(page, testInfo, { shot: "edit-profile", withoutScriptsToo: true });
    if (jsOn) {
      await page.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await lookAtEachWidth(page, testInfo, { shot: "edit-profile-dialog", fullPage: false });
    }
  });

  test("the password dialog keeps focus inside while open and gives it back to Save when closed @needs-js", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const email = uniqueEmail("dialogfocus", testInfo.project.name);
    seedAgent({ fullName: NAME, email, password: PASSWORD });
    await waitForReplica();
    await login({ email }, { password: PASSWORD });
    await page.goto("/edit-profile");
    await expect(page.getByRole("heading", { name: "Confirm with your password" })).toHaveCount(0);
    const save = page.getByRole("button", { name: "Save Changes" });
    await save.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Confirm your password" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Password", { exact: true }).fill("x");
    // A modal dialog leaves the page behind it inert: Tab reaches the dialog's controls or the browser's own, never the page.
    for (let stop = 0; stop < 8; stop += 1) {
      await page.keyboard.press("Tab");
      const inside = await dialog.evaluate(
        (element) =>
          document.activeElement === null || document.activeElement === document.body || element.contains(document.activeElement),
      );
      expect(inside, `focus inside the dialog after ${stop + 1} Tab presses`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(save).toBeFocused();
  });
});
