import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import type { Agent } from "../../app/domain/workbook/tabs";
import type { StoredMail } from "../../app/server/mail/mailer.server";
import { expect, test as base } from "./fixtures";

type Cast = { ann: Agent; bob: Agent; cat: Agent };

/** Three fresh agents unique to the test and project, and each member's own logged-in browser. */
const test = base.extend<{ cast: Cast }>({
  cast: async ({ seedAgent, waitForReplica }, use, testInfo) => {
    const tag = `${testInfo.project.name}-${randomUUID().slice(0, 8)}`;
    const agent = (first: string, last: string) =>
      seedAgent({ fullName: `${first} ${last}`, email: `${first.toLowerCase()}-${tag}@example.com` });
    const cast = { ann: agent("Ann", "Archer"), bob: agent("Bob", "Brooks"), cat: agent("Cat", "Cole") };
    await waitForReplica();
    await use(cast);
  },
});

async function sendMessage(page: Page, to: Agent, text: string): Promise<void> {
  await page.goto(`/messages?to=${to.id}`);
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(
    page
      .getByRole("region", { name: /^Conversation with/ })
      .getByText(text)
      .last(),
  ).toBeVisible();
}

const messagesBox = (page: Page) => page.getByRole("checkbox", { name: "New messages", exact: true });

test("a member turns message mails off and on again from the dashboard, and the outbox follows", async ({ cast, memberPage, outbox }) => {
  const { ann, bob, cat } = cast;
  const bobPage = await memberPage(bob);
  await bobPage.getByRole("link", { name: "Notification Settings" }).click();
  await expect(bobPage.getByRole("heading", { name: "Notification Settings" })).toBeVisible();
  await expect(messagesBox(bobPage)).toBeChecked();
  await expect(bobPage.getByText("at most one per conversation every 10 minutes")).toBeVisible();
  await messagesBox(bobPage).uncheck();
  await bobPage.getByRole("button", { name: "Save Settings" }).click();
  await expect(bobPage.getByRole("status")).toHaveText("Your notification settings are saved.");
  await expect(messagesBox(bobPage)).not.toBeChecked();
  expect(new URL(bobPage.url()).search, "the address names no notice").toBe("");
  await bobPage.reload();
  await expect(messagesBox(bobPage)).not.toBeChecked();
  await expect(bobPage.getByRole("status"), "the notice shows once").toHaveCount(0);

  const annPage = await memberPage(ann);
  await sendMessage(annPage, bob, "While your mail is off");
  await sendMessage(annPage, cat, "Cat keeps her mail on");
  // Cat's mail shows the sending ran; Bob's absence is then his choice, not a delay.
  await outbox.waitFor((mail) => mail.to === cat.email);
  expect((await outbox.mails()).filter((mail) => mail.to === bob.email)).toEqual([]);

  await messagesBox(bobPage).check();
  await bobPage.getByRole("button", { name: "Save Settings" }).click();
  await expect(bobPage.getByRole("status")).toHaveText("Your notification settings are saved.");
  await sendMessage(annPage, bob, "Now your mail is on");
  const mail = await outbox.waitFor((each) => each.to === bob.email);
  expect(mail.text).toContain("/settings/notifications");
});

function unsubscribeLink(mail: StoredMail): string {
  return (mail.headers?.["List-Unsubscribe"] ?? "").replace(/^<|>$/g, "");
}

test("the unsubscribe link in a mail works without logging in, and only its button changes anything", async ({
  cast,
  memberPage,
  outbox,
  page,
}) => {
  const { ann, cat } = cast;
  await sendMessage(await memberPage(ann), cat, "Hello Cat");
  const mail = await outbox.waitFor((each) => each.to === cat.email);
  const link = unsubscribeLink(mail);
  expect(mail.text).toContain(link);

  // The test's own page has no session.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Unsubscribe" })).toBeVisible();
  await expect(page.getByText(cat.email)).toBeVisible();
  // Opening it changed nothing: opening it again still asks.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Unsubscribe" })).toBeVisible();
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("New messages");

  const catPage = await memberPage(cat);
  await catPage.goto("/settings/notifications");
  await expect(messagesBox(catPage)).not.toBeChecked();
  await expect(catPage.getByRole("checkbox", { name: "Responses to my requests", exact: true })).toBeChecked();
});

test("an altered unsubscribe link is refused with a clear page", async ({ cast, memberPage, outbox, page }) => {
  const { ann, cat } = cast;
  await sendMessage(await memberPage(ann), cat, "Hello again");
  const link = unsubscribeLink(await outbox.waitFor((each) => each.to === cat.email));
  await page.goto(link.replace(".messages.", ".urgent."));
  await expect(page.getByRole("heading", { name: "This unsubscribe link is not valid" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
});
