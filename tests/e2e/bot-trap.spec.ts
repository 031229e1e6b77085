import type { Page } from "@playwright/test";
import { BOT_REFUSAL_MESSAGE, BOT_TRAP_FIELDS } from "../../app/domain/bot-trap";
import { expect, test } from "./fixtures";
import { startOwnServer } from "./support/own-server";
import { fillQuickRegistration, uniqueEmail } from "./support/registration";
import { withStoreFile } from "./support/store-file";

/**
 * The anonymous forms' bot trap in the browser, with and without JavaScript: people never
 * meet its honeypot, a script that fills it is refused with nothing stored or mailed, and
 * with the minimum fill time on (a server of its own: the shared one turns it off for the
 * suite's quick typing) a form sent at once is refused and the same form sent again later
 * goes through.
 */

function honeypot(page: Page) {
  return page.locator(`input[name="${BOT_TRAP_FIELDS.honeypot}"]`);
}

/** The answer to the form's post (a page without JavaScript, the route's data with it). */
function postAnswer(page: Page, path: string) {
  return page.waitForResponse(
    (response) => response.request().method() === "POST" && new RegExp(`^${path}(\\.data)?$`).test(new URL(response.url()).pathname),
  );
}

async function fillContact(page: Page, subject: string): Promise<void> {
  await page.getByLabel("Full Name").fill("Dana Reyes");
  await page.getByLabel("Email Address").fill("dana@example.com");
  await page.getByLabel("Category").selectOption({ label: "General Question" });
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Message", { exact: true }).fill("Is this a person?");
}

test("the honeypot is out of reach of people: not in the accessibility tree, not in the tab order, never autofilled", async ({ page }) => {
  for (const path of ["/contact", "/register"]) {
    await page.goto(path);
    await expect(honeypot(page)).toHaveAttribute("tabindex", "-1");
    await expect(honeypot(page)).toHaveAttribute("autocomplete", "off");
    await expect(page.getByRole("textbox", { name: /website/i })).toHaveCount(0);
    await expect(page.locator(`[aria-hidden="true"]:has(input[name="${BOT_TRAP_FIELDS.honeypot}"])`)).toHaveCount(1);
  }
});

test("a contact form with the honeypot filled is refused with a neutral message, the input kept, nothing stored or mailed", async ({
  page,
  outbox,
}, testInfo) => {
  const subject = `Bot ${testInfo.project.name} ${Date.now()}`;
  await page.goto("/contact");
  await fillContact(page, subject);
  await honeypot(page).fill("http://spam.example");
  const answer = postAnswer(page, "/contact");
  await page.getByRole("button", { name: "Send Message" }).click();
  expect((await answer).status()).toBe(400);

  await expect(page.getByRole("alert")).toContainText(BOT_REFUSAL_MESSAGE);
  await expect(page.getByLabel("Subject")).toHaveValue(subject);
  const stored = withStoreFile((db) => db.prepare(`SELECT COUNT(*) AS n FROM "Contact" WHERE subject = ?`).get(subject) as { n: number });
  expect(stored.n).toBe(0);
  expect((await outbox.mails()).filter((mail) => mail.subject.includes(subject))).toEqual([]);
});

test("with the minimum fill time on, a registration sent at once is refused and the same one sent a moment later goes on", async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  // Longer than filling the form can take on a busy machine, so the first send is surely too fast.
  const server = await startOwnServer({ FORM_MIN_FILL_SECONDS: "6" });
  try {
    await page.goto(`${server.baseUrl}/register`);
    await fillQuickRegistration(page, {
      fullName: "Quinn Quick",
      email: uniqueEmail("quick", testInfo.project.name),
      phone: "(214) 555-0100",
      state: "TX",
      city: "Dallas",
    });
    const answer = postAnswer(page, "/register");
    await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
    expect((await answer).status()).toBe(400);
    await expect(page.getByRole("alert")).toContainText(BOT_REFUSAL_MESSAGE);
    await expect(page.getByLabel("Full Name")).toHaveValue("Quinn Quick");

    // A person reading the message takes longer than the minimum before sending again.
    await page.waitForTimeout(6_500);
    await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
    await expect(page).toHaveURL(/\/payment$/);
  } finally {
    server.stop();
  }
});
