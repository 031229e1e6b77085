import { LOGIN_LINK_INVALID_MESSAGE } from "../../app/domain/account-messages";
import { e2eBaseUrl } from "./support/env";
import { expect, MEMBER_PASSWORD, test } from "./fixtures";

/** LOGIN_FAILURES_PER_ACCOUNT's default: the e2e server keeps it. */
const ACCOUNT_LIMIT = 10;

/**
 * Strangers guess a member's password from many addresses until the account's limit holds
 * it; the member, in a browser that never logged in to it, gets in with the one-time login
 * link the login page offers to mail them, with JavaScript and without.
 */
test("the owner of an account strangers hold gets in from a new browser by the mailed one-time login link", async ({
  page,
  seedAgent,
  waitForReplica,
  outbox,
}) => {
  const agent = seedAgent({ fullName: "Olive Owner" });
  await waitForReplica();
  // The server trusts the loopback proxy's X-Forwarded-For: each guess comes from its own address.
  for (let guess = 1; guess <= ACCOUNT_LIMIT; guess += 1) {
    const answer = await page.request.post("/member-login", {
      form: { email: agent.email, password: `guess ${guess}` },
      headers: { Origin: e2eBaseUrl, "X-Forwarded-For": `203.0.113.${guess}` },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(400);
  }

  await page.goto("/member-login");
  await page.getByLabel("Email Address").fill(agent.email);
  await page.getByLabel("Password").fill(MEMBER_PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("alert")).toContainText("Too many login attempts for this email address.");
  await expect(page.getByRole("alert")).toContainText("Or we can email you a one-time login link.");
  await page.getByRole("button", { name: "Email Me a Login Link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check Your Email" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(agent.email);

  const mail = await outbox.waitFor((candidate) => candidate.to === agent.email && candidate.subject.includes("login link"));
  const link = /http:\/\/\S+\/one-time-login\?token=[\w.-]+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  await page.goto(link ?? "");
  await expect(page).toHaveURL(/\/one-time-login$/);
  await expect(page.getByText(agent.email)).toBeVisible();
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/member-dashboard$/);

  // Used once: the same link again is refused, with the way to a new one.
  await page.goto(link ?? "");
  await expect(page.getByRole("alert")).toHaveText(LOGIN_LINK_INVALID_MESSAGE);
  await expect(page.getByRole("link", { name: "Request a New Link" })).toHaveAttribute("href", "/login-link");
});

test("the login link page answers an unknown address like a known one", async ({ page }, testInfo) => {
  const email = `nobody-${testInfo.project.name}-${Date.now()}@example.com`;
  await page.goto("/login-link");
  await page.getByLabel("Email Address").fill(email);
  await page.getByRole("button", { name: "Send Login Link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check Your Email" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(email);
});
