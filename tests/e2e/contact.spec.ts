import { expect, test } from "./fixtures";

test.describe("contact support", () => {
  test("bad input shows the product's messages beside the fields and keeps what was typed", async ({ page }) => {
    await page.goto("/contact");
    await page.getByLabel("Full Name").fill("Dana Reyes");
    await page.getByLabel("Email Address").fill("not-an-email");
    await page.getByLabel("Subject").fill("Kept subject");
    await page.getByRole("button", { name: "Send Message" }).click();

    const email = page.getByLabel("Email Address");
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Message is required")).toBeVisible();
    await expect(page.getByText("Please choose a category")).toBeVisible();
    await expect(page.getByLabel("Full Name")).toHaveValue("Dana Reyes");
    await expect(page.getByLabel("Subject")).toHaveValue("Kept subject");
    await expect(email).toHaveValue("not-an-email");
  });

  test("a valid message reaches support by mail and shows the thank-you page", async ({ page, outbox }, testInfo) => {
    const subject = `Verification question ${testInfo.project.name} ${Date.now()}`;
    await page.goto("/contact");
    await page.getByLabel("Full Name").fill("Dana Reyes");
    await page.getByLabel("Email Address").fill("Dana@Example.com");
    await page.getByLabel("Category").selectOption({ label: "License Verification" });
    await page.getByLabel("Subject").fill(subject);
    await page.getByLabel("Message", { exact: true }).fill("When will my license be checked?\n<b>Thanks</b>");
    await page.getByLabel("License State").selectOption("TX");
    await page.getByRole("button", { name: "Send Message" }).click();

    await expect(page.getByRole("heading", { name: "Thank you for contacting us!" })).toBeVisible();
    const mail = await outbox.waitFor((m) => m.subject.includes(subject));
    expect(mail.to).toBe("support@example.test");
    expect(mail.replyTo).toBe("dana@example.com");
    expect(mail.subject).toBe(`[License Verification] ${subject}`);
    expect(mail.text).toContain("State: TX");
    expect(mail.text).toContain("Agent license: Not provided");
    expect(mail.html).toContain("&lt;b&gt;Thanks&lt;/b&gt;");
    expect((await outbox.mails()).filter((m) => m.subject.includes(subject))).toHaveLength(1);

    await page.getByRole("link", { name: "Send Another Message" }).click();
    await expect(page.getByLabel("Subject")).toHaveValue("");
  });
});
