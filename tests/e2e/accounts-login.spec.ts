import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { LOGIN_MESSAGES } from "../../app/domain/auth";
import { updateAgentRow } from "./support/agents";

const PASSWORD = "correct horse battery";

/** What the login tests' agents have on their profiles (the dashboard's card shows it). */
const PROFILE = {
  fullName: "Dana Reyes",
  password: PASSWORD,
  specialties: ["Residential", "Luxury", "Land", "Farm and Ranch"],
  bio: "Helping families find homes along the Red River.",
};

async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

test.describe("member login", () => {
  test("shows the product's page: hint, Join FREE - Founder Access, forgot password and help links", async ({ page }) => {
    await page.goto("/member-login");
    await expect(page.getByRole("heading", { level: 1, name: "Member Login" })).toBeVisible();
    await expect(page.getByText("Check your welcome email")).toBeVisible();
    await expect(page.getByRole("link", { name: "Join FREE - Founder Access" })).toHaveAttribute("href", "/");
    await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute("href", "/forgot-password");
    await expect(page.getByRole("navigation", { name: "Help" }).getByRole("link", { name: "Contact Support" })).toHaveAttribute(
      "href",
      "/contact",
    );
  });

  test("gives each of the product's refusals, keeping the e-mail and never the password", async ({ page, seedAgent, waitForReplica }) => {
    const pending = seedAgent({ ...PROFILE, status: "pending" });
    const rejected = seedAgent({ ...PROFILE, status: "rejected", statusNote: "License not found" });
    await waitForReplica();
    await page.goto("/member-login");

    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert")).toHaveText(LOGIN_MESSAGES.required);

    await submitLogin(page, "nobody-here@example.com", PASSWORD);
    await expect(page.getByRole("alert")).toHaveText(LOGIN_MESSAGES.noAccount);
    await expect(page.getByLabel("Email Address")).toHaveValue("nobody-here@example.com");
    await expect(page.getByLabel("Password")).toHaveValue("");

    await submitLogin(page, pending.email, "not the password");
    await expect(page.getByRole("alert")).toHaveText(LOGIN_MESSAGES.wrongPassword);

    await submitLogin(page, pending.email, PASSWORD);
    await expect(page.getByRole("alert")).toHaveText(LOGIN_MESSAGES.pending);

    await submitLogin(page, rejected.email, PASSWORD);
    await expect(page.getByRole("alert")).toHaveText(LOGIN_MESSAGES.rejected);
    await expect(page.getByLabel("Email Address")).toHaveValue(rejected.email);
    await expect(page).toHaveURL(/\/member-login$/);
  });

  test("is refused while pending and allowed once staff approve the row, which mails the agent once", async ({
    page,
    seedAgent,
    waitForReplica,
    outbox,
  }) => {
    const agent = seedAgent({ ...PROFILE, status: "pending" });
    await waitForReplica();
    await page.goto("/member-login");
    await submitLogin(page, agent.email, PASSWORD);
    await expect(page.getByRole("alert")).toHaveText(LOGIN_MESSAGES.pending);

    updateAgentRow(agent.id, { status: "approved" });
    await waitForReplica();
    const mail = await outbox.waitFor((candidate) => candidate.to === agent.email);
    expect(mail.subject).toContain("approved");
    expect(mail.text).toContain("/member-login");
    expect(mail.text).not.toContain(PASSWORD);

    await submitLogin(page, agent.email, PASSWORD);
    await expect(page).toHaveURL(/\/member-dashboard$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Dana!" })).toBeVisible();
  });

  test("leads to the dashboard with the profile card, and logout ends the session", async ({ page, seedAgent, waitForReplica }) => {
    const agent = seedAgent({ ...PROFILE, city: "", state: "", brokerage: "" });
    await waitForReplica();
    await page.goto("/member-login");
    await submitLogin(page, agent.email, PASSWORD);

    await expect(page).toHaveURL(/\/member-dashboard$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Dana!" })).toBeVisible();
    const card = page.getByRole("region", { name: "Your Profile" });
    await expect(card.getByText("Dana Reyes")).toBeVisible();
    await expect(card.getByText("DR", { exact: true })).toBeVisible();
    await expect(card.getByText("Location not set")).toBeVisible();
    await expect(card.getByText("Verified Member")).toBeVisible();
    await expect(card.getByText("Not specified")).toBeVisible();
    await expect(card.getByRole("listitem")).toHaveText(["Residential", "Luxury", "Land", "+1 more"]);
    await expect(card.getByText("Helping families find homes along the Red River.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Edit Profile" })).toHaveAttribute("href", "/edit-profile");

    await page.setViewportSize({ width: 1280, height: 800 });
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/member-dashboard");
    await expect(nav.getByRole("link", { name: "Join FREE" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Member Login" })).toHaveCount(0);

    await page.getByRole("main").getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(nav.getByRole("link", { name: "Member Login" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);

    await page.goto("/member-dashboard");
    await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fmember-dashboard$/);
  });

  test("a member page without a session goes to login and comes back after it", async ({ page, seedAgent, waitForReplica }) => {
    const agent = seedAgent(PROFILE);
    await waitForReplica();
    await page.goto("/member-dashboard?from=bookmark");
    await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fmember-dashboard%3Ffrom%3Dbookmark$/);
    await submitLogin(page, agent.email, PASSWORD);
    await expect(page).toHaveURL(/\/member-dashboard\?from=bookmark$/);
  });

  test("a redirectTo to another site is ignored", async ({ page, seedAgent, waitForReplica }) => {
    const agent = seedAgent(PROFILE);
    await waitForReplica();
    await page.goto("/member-login?redirectTo=//evil.example/steal");
    await submitLogin(page, agent.email, PASSWORD);
    await expect(page).toHaveURL(/\/member-dashboard$/);
  });

  test("too many attempts on one e-mail are refused with a clear message", async ({ page }, testInfo) => {
    // Eleven real bcrypt checks, on a machine that may be running other suites.
    test.setTimeout(120_000);
    const email = `flood-${testInfo.project.name}-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto("/member-login");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const response = page.waitForResponse((candidate) => candidate.request().method() === "POST");
      await submitLogin(page, email, `guess ${attempt}`);
      statuses.push((await response).status());
    }
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    await expect(page.getByRole("alert")).toHaveText("Too many login attempts. Please wait 15 minutes and try again.");
    await expect(page.getByLabel("Email Address")).toHaveValue(email);
  });
});

test.describe("forgot and reset password", () => {
  test("a link from the mail sets a new password, once", async ({ page, seedAgent, waitForReplica, outbox }) => {
    const agent = seedAgent(PROFILE);
    await waitForReplica();
    await page.goto("/member-login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Forgot Password?" })).toBeVisible();

    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByText("Email is required")).toBeVisible();

    await page.getByLabel("Email Address").fill(agent.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Check Your Email" })).toBeVisible();
    await expect(page.getByRole("status")).toContainText(agent.email);
    await expect(page.getByRole("link", { name: "Back to Member Login" })).toHaveAttribute("href", "/member-login");
    await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");

    const mail = await outbox.waitFor((candidate) => candidate.to === agent.email && candidate.subject.includes("Reset"));
    const link = mail.text.match(/https?:\/\/\S+\/reset-password\?token=[\w.-]+/)?.[0];
    expect(link).toBeDefined();
    await outbox.waitFor((candidate) => candidate.to === "support@example.test" && candidate.text.includes(agent.email));

    await page.goto(link ?? "");
    // The token leaves the address at once: it is in no later URL, log line or Referer.
    await expect(page).toHaveURL(/\/reset-password$/);
    await expect(page.getByRole("heading", { level: 1, name: "Choose a New Password" })).toBeVisible();
    await page.getByLabel("New Password", { exact: true }).fill("short");
    await page.getByLabel("Confirm New Password").fill("different");
    await page.getByRole("button", { name: "Save New Password" }).click();
    await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();
    await expect(page.getByText("Passwords do not match. Please try again.")).toBeVisible();

    await page.getByLabel("New Password", { exact: true }).fill("a new river password");
    await page.getByLabel("Confirm New Password").fill("a new river password");
    await page.getByRole("button", { name: "Save New Password" }).click();
    await expect(page).toHaveURL(/\/member-login$/);
    await expect(page.getByRole("status")).toHaveText("Your password has been changed. Please log in with your new password.");
    // Said once: loaded again, the login page is a plain one.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("Your password has been changed.")).toHaveCount(0);

    await submitLogin(page, agent.email, PASSWORD);
    await expect(page.getByRole("alert")).toHaveText(LOGIN_MESSAGES.wrongPassword);
    await submitLogin(page, agent.email, "a new river password");
    await expect(page).toHaveURL(/\/member-dashboard$/);

    await page.goto(link ?? "");
    await expect(page.getByRole("alert")).toContainText("invalid, has expired or was already used");
    await expect(page.getByRole("link", { name: "Request a New Link" })).toHaveAttribute("href", "/forgot-password");
  });

  test("answers an unknown address like a known one", async ({ page }, testInfo) => {
    const email = `unknown-${testInfo.project.name}-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto("/forgot-password");
    await page.getByLabel("Email Address").fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Check Your Email" })).toBeVisible();
    await expect(page.getByRole("status")).toContainText(email);
  });
});
