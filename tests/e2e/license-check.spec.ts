import path from "node:path";
import { fileSource } from "../../app/server/licenses/license-source.server";
import { licenseDatabaseFile, openLicenseTable } from "../../app/server/licenses/license-table.server";
import { e2eDataDir } from "./support/env";
import { waitForMail } from "./support/outbox";
import { agentRow, fillProfile, reachProfileForm, uniqueEmail } from "./support/registration";
import { screenshotForPeople } from "./support/screenshots";
import { expect, test } from "./support/test";

const FIXTURE = path.resolve("tests/fixtures/trec/trecfile.txt");
const PASSWORD = "Red-River-2025!";

/**
 * Loads the TREC fixture into the running server's license table, as `npm run
 * licenses:update` would. The js-on and js-off workers may load at once: a load that
 * loses the race is fine when the other one's data is there.
 */
test.beforeAll(async () => {
  const table = openLicenseTable(licenseDatabaseFile(e2eDataDir));
  try {
    await table.replace(
      fileSource(FIXTURE).records(() => undefined),
      FIXTURE,
    );
  } catch {
    await expect.poll(() => table.lookup("0654321")?.fullName).toBe("REYES, DANA MARIE");
  } finally {
    table.close();
  }
});

test("a Texas applicant with an active license registers as before, and staff see the check in the row", async ({ page }, testInfo) => {
  const email = uniqueEmail("license", testInfo.project.name);
  await reachProfileForm(page, { fullName: "Dana Reyes", email, phone: "214.555.0100", state: "TX", city: "Dallas" });
  await fillProfile(page, PASSWORD);
  await page.getByRole("button", { name: "Create Agent Profile" }).click();

  // Nothing about the check reaches the applicant: the same welcome page and mail.
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole("heading", { name: /Welcome to/ })).toBeVisible();
  await expect(page.getByText(/TREC|license check/i)).toHaveCount(0);
  const welcome = await waitForMail((mail) => mail.to === email);
  expect(welcome.text).toContain("24-48 hours");
  expect(welcome.text).not.toMatch(/name matches|TX active/);

  expect(agentRow(email)?.agent).toMatchObject({
    status: "pending",
    licenseCheck: "TX active, name matches, broker matches",
    licenseCheckNote: expect.stringContaining("name on license: REYES, DANA MARIE"),
  });
  const notice = await waitForMail((mail) => mail.to === "support@example.test" && mail.replyTo === email);
  expect(notice.text).toContain("License check: TX active, name matches, broker matches");
});

test("a Texas applicant whose license TREC's data lacks is told why beside the blank broker fields, the input kept", async ({
  page,
}, testInfo) => {
  const email = uniqueEmail("unknown-license", testInfo.project.name);
  await page.setViewportSize({ width: 390, height: 844 });
  await reachProfileForm(page, { fullName: "Casey Newlicense", email, phone: "214.555.0100", state: "TX", city: "Dallas" });
  await expect(page.getByText("Licensed in Texas? Leave these blank and we fill them in from TREC's license records.")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByLabel("License Number", { exact: true }).fill("0799999");
  await page.getByLabel("Brokerage", { exact: true }).fill("Lone Star Realty");
  await page.getByLabel("Luxury").check();
  await page.getByLabel("Professional Bio").fill("New to the business, selling homes in Dallas.");
  await page.getByRole("button", { name: "Create Agent Profile" }).click();

  const reason = "TREC's records have no license 0799999, so please type your broker's name, license number and email.";
  await expect(page.getByLabel("Broker License Number")).toHaveAccessibleDescription(reason);
  await expect(page.getByLabel("Broker Email")).toHaveAccessibleDescription(reason);
  await expect(page.getByText("Broker license number is required")).toHaveCount(0);
  await expect(page.getByLabel("Brokerage", { exact: true })).toHaveValue("Lone Star Realty");
  await expect(page.getByLabel("License Number", { exact: true })).toHaveValue("0799999");
  expect(agentRow(email)).toBeUndefined();
  const brokerage = page.getByRole("heading", { name: "Your brokerage" });
  await brokerage.evaluate((heading) => heading.scrollIntoView({ block: "center" }));
  await screenshotForPeople(page, testInfo, "unknown-license-broker-390", { withoutScriptsToo: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await brokerage.evaluate((heading) => heading.scrollIntoView({ block: "center" }));
  await screenshotForPeople(page, testInfo, "unknown-license-broker-1280", { withoutScriptsToo: true });
});
