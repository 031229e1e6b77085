import { expect, test } from "./fixtures";
import { updateAgentRow } from "./support/agents";
import {
  agentRow,
  E2E_VIP_CODE,
  fillProfile,
  fillQuickRegistration,
  jpegFile,
  reachProfileForm,
  renamedTextFile,
  uniqueEmail,
  type QuickDetails,
} from "./support/registration";
import { lookAtEachWidth } from "./support/widths";

const PASSWORD = "Red-River-2025!";

function details(email: string): QuickDetails {
  return { fullName: "Dana Reyes", email, phone: "214.555.0100", state: "TX", city: "Dallas" };
}

test.describe("registration", () => {
  test("the whole flow ends on /welcome with a pending agent, a bcrypt hash and no password in the row or the mails", async ({
    page,
    waitForReplica,
    login,
    outbox,
  }, testInfo) => {
    const email = uniqueEmail("flow", testInfo.project.name);
    await page.setViewportSize({ width: 390, height: 900 });
    await reachProfileForm(page, details(email));

    await expect(page.getByText("Registration Successful")).toBeVisible();
    await expect(page.getByText("Verified Member")).toBeVisible();
    await expect(page.getByText(/FREE forever/)).toBeVisible();

    // The broker the referral agreement names is asked for: a license TREC's data does not
    // hold fills nothing, so blank broker fields are refused beside each with the reason (the
    // server's TREC data is loaded by another spec, so it may not be there yet), the rest kept.
    await fillProfile(page, PASSWORD);
    await page.getByLabel("License Number", { exact: true }).fill("0655555");
    await page.getByLabel("Broker License Number").fill("");
    await page.getByLabel("Broker Email").fill("");
    await page.getByRole("button", { name: "Create Agent Profile" }).click();
    const reason =
      /^(TREC's records have no license 0655555|We cannot look up your broker: TREC's license data is not loaded yet), so please type your broker's name, license number and email\.$/;
    await expect(page.getByLabel("Broker License Number")).toHaveAccessibleDescription(reason);
    await expect(page.getByLabel("Broker Email")).toHaveAccessibleDescription(reason);
    await expect(page.getByLabel("Broker License Number")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Brokerage", { exact: true })).toHaveValue("Lone Star Realty");
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      "no sideways scroll at 390px",
    ).toBeLessThanOrEqual(0);
    expect(agentRow(email)).toBeUndefined();

    await page.setViewportSize({ width: 1280, height: 900 });
    await fillProfile(page, PASSWORD);
    await page.getByLabel("Profile Photo").setInputFiles(await jpegFile());
    await page.getByRole("button", { name: "Create Agent Profile" }).click();

    await expect(page).toHaveURL(/\/welcome$/);
    await expect(page.getByRole("heading", { name: /Welcome to/ })).toBeVisible();

    const row = agentRow(email);
    expect(row?.agent).toMatchObject({
      fullName: "Dana Reyes",
      phone: "(214) 555-0100",
      state: "TX",
      city: "Dallas",
      licenseNumber: "0654321",
      brokerage: "Lone Star Realty",
      brokerLicenseNumber: "9001234",
      brokerEmail: "broker@lonestar.example",
      specialties: ["Luxury", "Farm and Ranch"],
      status: "pending",
      membershipType: expect.stringMatching(/^(founder|member)$/),
    });
    expect(row?.cells.passwordHash).toMatch(/^\$2[aby]\$\d{2}\$/);
    expect(Object.values(row?.cells ?? {}).join("\n")).not.toContain(PASSWORD);

    // The photo was resized and is served from the app.
    const photo = await page.request.get(row?.agent.photoUrl ?? "");
    expect(photo.status()).toBe(200);
    expect(photo.headers()["content-type"]).toBe("image/jpeg");
    expect(photo.headers()["cache-control"]).toContain("immutable");

    const welcome = await outbox.waitFor((mail) => mail.to === email);
    expect(welcome.text).toContain("24-48 hours");
    expect(welcome.text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/member-login/);
    const notice = await outbox.waitFor((mail) => mail.to === "support@example.test" && mail.replyTo === email);
    expect(notice.text).toContain("https://www.trec.texas.gov/apps/license-holder-search/");
    expect(notice.text, "a Texas applicant's notice names only the Texas look-up").not.toContain("https://orec.us/");
    for (const mail of await outbox.mails()) expect(JSON.stringify(mail)).not.toContain(PASSWORD);

    // Staff approve by editing the row; the agent can then log in.
    updateAgentRow(row?.agent.id ?? "", { status: "approved" });
    await waitForReplica();
    await login({ email }, { password: PASSWORD });
  });

  test("each quick-registration error shows beside its field and the input stays", async ({ page }) => {
    await page.goto("/register");
    await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
    for (const message of [
      "Full name is required",
      "Email is required",
      "Phone number is required",
      "Please select your state",
      "City is required",
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }

    await fillQuickRegistration(page, { fullName: "Dana Reyes", email: "dana@example", phone: "214-555", state: "OK", city: "Tulsa" });
    await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(page.getByText("Please enter a valid phone number")).toBeVisible();
    await expect(page.getByLabel("Email Address")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Full Name")).toHaveValue("Dana Reyes");
    await expect(page.getByLabel("Email Address")).toHaveValue("dana@example");
    await expect(page.getByLabel("Phone Number")).toHaveValue("214-555");
    await expect(page.getByLabel("State")).toHaveValue("OK");
    await expect(page.getByLabel("City")).toHaveValue("Tulsa");
    await expect(page).toHaveURL(/\/register$/);
  });

  test("an approved member's e-mail registered again is told to log in", async ({ page, waitForReplica }, testInfo) => {
    const email = uniqueEmail("twice", testInfo.project.name);
    await reachProfileForm(page, details(email));
    await fillProfile(page, PASSWORD);
    await page.getByRole("button", { name: "Create Agent Profile" }).click();
    await expect(page).toHaveURL(/\/welcome$/);
    // An applicant still pending is told the application is under review (newcomer.spec.ts).
    updateAgentRow(agentRow(email)?.agent.id ?? "", { status: "approved" });
    await waitForReplica();

    await page.goto("/register");
    await fillQuickRegistration(page, details(email.toUpperCase()));
    await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
    await expect(page.getByText("An account with this email already exists. Please log in instead.")).toBeVisible();
    await page.getByRole("link", { name: "Go to Member Login" }).click();
    await expect(page).toHaveURL(/\/member-login$/);
  });

  test("profile errors show the product's messages, keep the input and never the passwords", async ({ page }, testInfo) => {
    await reachProfileForm(page, details(uniqueEmail("profile", testInfo.project.name)));
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Confirm Password").fill("shorter");
    await page.getByLabel("Land").check();
    await page.getByLabel("Professional Bio").fill("Kept bio");
    await page.getByRole("button", { name: "Create Agent Profile" }).click();

    await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();
    await expect(page.getByText("Passwords do not match. Please try again.")).toBeVisible();
    await expect(page.getByText("License number is required", { exact: true })).toBeVisible();
    await expect(page.getByText("Brokerage is required")).toBeVisible();
    await expect(page.getByText("Broker license number is required")).toBeVisible();
    await expect(page.getByText("Broker email is required")).toBeVisible();
    await expect(page.getByLabel("Land")).toBeChecked();
    await expect(page.getByLabel("Professional Bio")).toHaveValue("Kept bio");
    await expect(page.getByTestId("bio-counter")).toHaveText("8/600 characters");
    if (testInfo.project.name === "js-off") {
      // Only the server could have answered, and it sends no password back.
      await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
      await expect(page.getByLabel("Confirm Password")).toHaveValue("");
    }
  });

  test("the bio counter counts what was typed: live with JavaScript, after posting without", async ({ page }, testInfo) => {
    await reachProfileForm(page, details(uniqueEmail("bio", testInfo.project.name)));
    const counter = page.getByTestId("bio-counter");
    await expect(counter).toHaveText("0/600 characters");
    await page.getByLabel("Professional Bio").fill("Hello Tulsa");
    if (testInfo.project.name === "js-off") await page.getByRole("button", { name: "Create Agent Profile" }).click();
    await expect(counter).toHaveText("11/600 characters");
    await expect(page.getByLabel("Professional Bio")).toHaveAttribute("maxlength", "600");
  });

  test("a text file renamed to .jpg is refused with the photo message", async ({ page }, testInfo) => {
    const email = uniqueEmail("renamed", testInfo.project.name);
    await reachProfileForm(page, details(email));
    await fillProfile(page, PASSWORD);
    await page.getByLabel("Profile Photo").setInputFiles(renamedTextFile());
    await page.getByRole("button", { name: "Create Agent Profile" }).click();
    await expect(page.getByText("Please upload a JPG, PNG, or WebP image")).toBeVisible();
    await expect(page.getByLabel("License Number", { exact: true })).toHaveValue("0654321");
    expect(agentRow(email)).toBeUndefined();
  });

  test("a photo over 5MB is refused with the size message and the rest of the input kept", async ({ page }, testInfo) => {
    const email = uniqueEmail("huge", testInfo.project.name);
    await reachProfileForm(page, details(email));
    await fillProfile(page, PASSWORD);
    await page
      .getByLabel("Profile Photo")
      .setInputFiles({ name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(6 * 1024 * 1024, 0xff) });
    await page.getByRole("button", { name: "Create Agent Profile" }).click();
    await expect(page.getByText("File size must be less than 5MB")).toBeVisible();
    await expect(page.getByLabel("Brokerage", { exact: true })).toHaveValue("Lone Star Realty");
    expect(agentRow(email)).toBeUndefined();
  });

  test("a VIP invitation shows its banner and makes a VIP member", async ({ page }, testInfo) => {
    const email = uniqueEmail("vip", testInfo.project.name);
    await page.goto(`/register?vip=${E2E_VIP_CODE.toLowerCase()}`);
    await expect(page.getByText("VIP invitation applied")).toBeVisible();
    await expect(page.getByText(E2E_VIP_CODE, { exact: true })).toBeVisible();
    await fillQuickRegistration(page, details(email));
    await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
    await expect(page.getByRole("heading", { name: "FREE VIP Access" })).toBeVisible();
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await page.getByRole("link", { name: "Complete Your Profile" }).click();
    await fillProfile(page, PASSWORD);
    await page.getByRole("button", { name: "Create Agent Profile" }).click();
    await expect(page).toHaveURL(/\/welcome$/);
    expect(agentRow(email)?.agent).toMatchObject({ membershipType: "vip", vipCode: E2E_VIP_CODE });
  });

  test("an unknown invitation code shows no banner", async ({ page }) => {
    await page.goto("/register?vip=not-a-code");
    await expect(page.getByLabel("Full Name")).toBeVisible();
    await expect(page.getByText("VIP invitation applied")).toHaveCount(0);
  });

  test("the membership pages need the first step", async ({ page }) => {
    await page.context().clearCookies();
    for (const path of ["/payment", "/registration-success", "/complete-profile"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/register$/);
    }
  });
});

test.describe("registration screens", () => {
  test("on a phone and a desktop", async ({ page }, testInfo) => {
    await page.goto(`/register?vip=${E2E_VIP_CODE}`);
    await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
    await expect(page.getByText("City is required")).toBeVisible();
    await lookAtEachWidth(page, testInfo, { shot: "register-errors" });
    await fillQuickRegistration(page, details(uniqueEmail("shots", testInfo.project.name)));
    await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await lookAtEachWidth(page, testInfo, { shot: "payment" });
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page).toHaveURL(/\/registration-success/);
    await lookAtEachWidth(page, testInfo, { shot: "registration-success" });
    await page.getByRole("link", { name: "Complete Your Profile" }).click();
    await expect(page).toHaveURL(/\/complete-profile/);
    await lookAtEachWidth(page, testInfo, { shot: "complete-profile" });
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Create Agent Profile" }).click();
    await expect(page.getByText("Brokerage is required")).toBeVisible();
    await lookAtEachWidth(page, testInfo, { shot: "complete-profile-errors" });
  });
});
