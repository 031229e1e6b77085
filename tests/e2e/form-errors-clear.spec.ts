import { expect, test } from "./fixtures";

/**
 * A field's message answers the post that was refused. With JavaScript it goes as soon as
 * the member edits that field (the others keep theirs), and the error summary goes with the
 * first edit; without JavaScript the page keeps them until the form is sent again.
 */
test.describe("messages of a refused form", () => {
  test("registration: the e-mail's message goes when the address is edited, the others stay", async ({ page, javaScriptEnabled }) => {
    await page.goto("/register");
    await page.getByLabel("Email Address").fill("not-an-email");
    await page.getByRole("button", { name: "Continue" }).click();
    const email = page.getByLabel("Email Address");
    const fullName = page.getByLabel("Full Name");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(fullName).toHaveAttribute("aria-invalid", "true");
    const emailMessage = page.getByText("Please enter a valid email address");
    await expect(emailMessage).toBeVisible();

    await email.fill("dana.reyes@example.com");
    if (javaScriptEnabled) {
      await expect(emailMessage).toBeHidden();
      await expect(email).not.toHaveAttribute("aria-invalid");
      await expect(email).not.toHaveAttribute("aria-describedby", /error/);
      await expect(fullName).toHaveAttribute("aria-invalid", "true");
    } else {
      await expect(emailMessage).toBeVisible();
    }

    await page.getByRole("button", { name: "Continue" }).click();
    await expect(fullName).toHaveAttribute("aria-invalid", "true");
    await expect(emailMessage).toBeHidden();
    await expect(email).toHaveValue("dana.reyes@example.com");
  });

  test("login: the error summary goes with the first edit", async ({ page, seedAgent, waitForReplica, javaScriptEnabled }) => {
    const member = seedAgent({ fullName: "Sam Summary" });
    await waitForReplica();
    await page.goto("/member-login");
    await page.getByLabel("Email Address").fill(member.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Login" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "Incorrect password. Please try again." });
    await expect(summary).toBeVisible();

    await page.getByLabel("Password").fill("another-try");
    if (javaScriptEnabled) await expect(summary).toHaveCount(0);
    else await expect(summary).toBeVisible();
  });
});
