import { expect, test } from "./fixtures";

/**
 * After a refused form, focus is on its first invalid field, so keyboard and screen
 * reader users start where the fixing starts (the error summary when the refusal
 * names no one field): from the server's page with JavaScript
 * off, from the server's answer with it on (the browser does not validate, decision 0024).
 */
test.describe("focus after a refused form", () => {
  test("login: the error summary when both fields are empty", async ({ page }) => {
    await page.goto("/member-login");
    await page.getByRole("button", { name: "Login" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "required" });
    await expect(summary).toBeVisible();
    await expect(summary).toBeFocused();
  });

  test("contact: the bad email after a kept name", async ({ page }) => {
    await page.goto("/contact");
    await page.getByLabel("Full Name").fill("Dana Reyes");
    await page.getByLabel("Email Address").fill("not-an-email");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByLabel("Email Address")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email Address")).toBeFocused();
  });

  test("post a request: the empty title", async ({ page, seedAgent, waitForReplica, login }) => {
    const member = seedAgent({ fullName: "Fay Focus" });
    await waitForReplica();
    await login(member, { then: "/post-request?type=referral" });
    await page.getByRole("button", { name: /^Post .* Request$/ }).click();
    await expect(page.getByLabel("Request Title")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Request Title")).toBeFocused();
  });
});
