import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test as base } from "./fixtures";
import { CANNOT_MESSAGE_SELF } from "../../app/server/messages/conversations.server";
import type { Agent } from "../../app/domain/workbook/tabs";
import { moveMailTimesBack } from "./support/messages";

const PHONE = { width: 390, height: 844 };

type Cast = { ann: Agent; bob: Agent; cat: Agent };

/**
 * This spec's fixtures: three fresh approved agents, unique to the test and project (the
 * projects run at the same time), and each member's own browser (its own cookies),
 * logged in with the `login` fixture.
 */
const test = base.extend<{ cast: Cast }>({
  cast: async ({ seedAgent, waitForReplica }, use, testInfo) => {
    const tag = `${testInfo.project.name}-${randomUUID().slice(0, 8)}`;
    const agent = (first: string, last: string, fields: Partial<Agent> = {}) =>
      seedAgent({
        fullName: `${first} ${last}${tag.replace(/[^a-z0-9]/gi, "")}`,
        email: `${first.toLowerCase()}-${tag}@example.com`,
        ...fields,
      });
    const cast = {
      ann: agent("Ann", "Archer", { brokerage: "Archer Realty", city: "Austin", state: "TX", phone: "2145550100" }),
      bob: agent("Bob", "Brooks", { brokerage: "Brooks Homes", city: "Tulsa", state: "OK" }),
      cat: agent("Cat", "Cole"),
    };
    await waitForReplica();
    await use(cast);
  },
});

const box = (page: Page) => page.getByRole("textbox", { name: "Message" });
const thread = (page: Page) => page.getByRole("region", { name: /^Conversation with/ });
const header = (page: Page) => page.getByRole("navigation", { name: "Main" });

async function send(page: Page, text: string): Promise<void> {
  await box(page).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(thread(page).getByText(text.split("\n")[0]!, { exact: false }).last()).toBeVisible();
}

function conversationIdOf(page: Page): string {
  const id = new URL(page.url()).searchParams.get("conversation");
  if (!id) throw new Error(`No conversation in ${page.url()}`);
  return id;
}

test.describe("messages", () => {
  // Each test drives two or three members' browsers, each logging in first.
  test.describe.configure({ timeout: 90_000 });

  test("a conversation started from the directory, with both members' views and the message kept as typed", async ({
    cast,
    memberPage,
  }) => {
    const { ann, bob } = cast;
    const [annPage, bobPage] = await Promise.all([memberPage(ann), memberPage(bob)]);

    await annPage.goto(`/directory?q=${encodeURIComponent(bob.fullName)}`);
    await annPage.getByRole("link", { name: `Message ${bob.fullName}` }).click();
    await expect(annPage).toHaveURL(/\/messages\?to=/);
    await expect(thread(annPage).getByRole("heading", { name: bob.fullName })).toBeVisible();
    await expect(annPage.getByRole("region", { name: "Conversations" }).getByText("New conversation")).toBeVisible();

    const typed = "Hi Bob, a buyer for Tulsa\n<b>not bold</b> https://example.com/listing";
    await send(annPage, typed);
    await expect(annPage).toHaveURL(/\/messages\?conversation=/);
    await expect(box(annPage)).toHaveValue("");
    const bubble = thread(annPage).getByText("<b>not bold</b>", { exact: false });
    await expect(bubble).toHaveText(typed);
    await expect(bubble).toHaveCSS("white-space", "pre-wrap");
    await expect(thread(annPage).locator("b")).toHaveCount(0);
    await expect(thread(annPage).getByRole("link", { name: /example\.com/ })).toHaveCount(0);

    await bobPage.goto("/messages");
    const row = bobPage.getByRole("link", { name: new RegExp(ann.fullName) });
    await expect(row).toContainText("Hi Bob, a buyer for Tulsa");
    await row.click();
    await expect(thread(bobPage).getByText("<b>not bold</b>", { exact: false })).toHaveText(typed);
    await send(bobPage, "Thanks Ann, call me tomorrow.");
    await annPage.reload();
    await expect(thread(annPage).getByText("Thanks Ann, call me tomorrow.")).toBeVisible();
  });

  test("sending: Enter sends and Shift+Enter adds a line with JavaScript; the Send button posts without it", async ({
    cast,
    memberPage,
  }, testInfo) => {
    const { ann, bob } = cast;
    const page = await memberPage(ann);
    await page.goto(`/messages?to=${bob.id}`);

    if (testInfo.project.name === "js-on") {
      await box(page).click();
      await page.keyboard.type("First line");
      await page.keyboard.press("Shift+Enter");
      await page.keyboard.type("second line");
      await expect(box(page)).toHaveValue("First line\nsecond line");
      await page.keyboard.press("Enter");
      await expect(thread(page).getByText("First line", { exact: false })).toHaveText("First line\nsecond line");
      await expect(box(page)).toHaveValue("");
    } else {
      await box(page).fill("Sent without JavaScript");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await expect(page).toHaveURL(/\/messages\?conversation=/);
      await expect(thread(page).getByText("Sent without JavaScript")).toBeVisible();
      await expect(box(page)).toHaveValue("");
    }

    // A blank message is refused with the product's message; the page keeps working.
    await box(page).fill("   ");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText("Please enter a message")).toBeVisible();
  });

  test("new messages reach the open thread and the list: live with JavaScript, on the next load without", async ({
    cast,
    memberPage,
  }, testInfo) => {
    const live = testInfo.project.name === "js-on";
    const { ann, bob, cat } = cast;
    const [annPage, bobPage, catPage] = await Promise.all([memberPage(ann), memberPage(bob), memberPage(cat)]);

    await annPage.goto(`/messages?to=${bob.id}`);
    await send(annPage, "Are you there?");
    const conversationId = conversationIdOf(annPage);
    await bobPage.goto(`/messages?conversation=${encodeURIComponent(conversationId)}`);
    await expect(thread(bobPage).getByText("Are you there?")).toBeVisible();
    if (live) await bobPage.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

    await send(annPage, "Live message one");
    await catPage.goto(`/messages?to=${bob.id}`);
    await send(catPage, "Hello from Cat");
    if (!live) await bobPage.reload();

    await expect(thread(bobPage).getByText("Live message one")).toBeVisible({ timeout: 5_000 });
    // A new conversation shows up in the list with its unread count; the open thread is read as messages arrive.
    const catRow = bobPage.getByRole("region", { name: "Conversations" }).getByRole("link", { name: new RegExp(cat.fullName) });
    await expect(catRow).toContainText("Hello from Cat", { timeout: 5_000 });
    await expect(catRow).toContainText("1 unread");
    await expect(header(bobPage).getByRole("link", { name: /Messages/ })).toContainText("1 unread");
    if (live) expect(await bobPage.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
  });

  test("unread counts in the header, the list and the dashboard card, reset by opening the thread on any device", async ({
    cast,
    memberPage,
  }) => {
    const { ann, bob } = cast;
    const annPage = await memberPage(ann);
    await annPage.goto(`/messages?to=${bob.id}`);
    await send(annPage, "Unread one");
    await send(annPage, "Unread two");

    const bobPage = await memberPage(bob);
    await expect(header(bobPage).getByRole("link", { name: /Messages/ })).toContainText("2 unread");
    const card = bobPage.getByRole("region", { name: "Messages", exact: true });
    await expect(card).toContainText("2 unread");
    await expect(card.getByRole("link", { name: new RegExp(ann.fullName) })).toContainText("Unread two");

    await bobPage.goto("/messages");
    const row = bobPage.getByRole("region", { name: "Conversations" }).getByRole("link", { name: new RegExp(ann.fullName) });
    await expect(row).toContainText("2 unread");
    await row.click();
    await expect(thread(bobPage).getByText("Unread two")).toBeVisible();
    await expect(header(bobPage).getByRole("link", { name: /Messages/ })).not.toContainText("unread");
    await expect(row).not.toContainText("unread");

    // Stored, not remembered by the browser: a reload and another device agree.
    await bobPage.reload();
    await expect(header(bobPage).getByRole("link", { name: /Messages/ })).not.toContainText("unread");
    const bobPhone = await memberPage(bob, PHONE);
    await bobPhone.goto("/messages");
    await expect(
      bobPhone.getByRole("region", { name: "Conversations" }).getByRole("link", { name: new RegExp(ann.fullName) }),
    ).not.toContainText("unread");
  });

  test("Share My Contact Info sends the member's name, e-mail, phone and brokerage", async ({ cast, memberPage }) => {
    const { ann, bob } = cast;
    const annPage = await memberPage(ann);
    await annPage.goto(`/messages?to=${bob.id}`);
    await annPage.getByRole("button", { name: "Share My Contact Info" }).click();
    const shared = thread(annPage).getByText("Here is my contact info:", { exact: false });
    await expect(shared).toHaveText(
      `Here is my contact info:\nName: ${ann.fullName}\nEmail: ${ann.email}\nPhone: (214) 555-0100\nBrokerage: Archer Realty`,
    );

    const bobPage = await memberPage(bob);
    await bobPage.goto("/messages");
    await bobPage.getByRole("link", { name: new RegExp(ann.fullName) }).click();
    await expect(thread(bobPage).getByText(`Email: ${ann.email}`, { exact: false })).toBeVisible();
  });

  test("under 768 px one pane shows: the list first, the thread with a back arrow", async ({ cast, memberPage }, testInfo) => {
    const { ann, bob } = cast;
    const annDesk = await memberPage(ann);
    await annDesk.goto(`/messages?to=${bob.id}`);
    await send(annDesk, "A message to see on a phone and on a desk.\nWith a second line.");
    await expect(annDesk.getByRole("region", { name: "Conversations" })).toBeVisible();
    const pane = await thread(annDesk).boundingBox();
    expect(pane?.height).toBeCloseTo(600, 0);
    await annDesk.screenshot({ path: testInfo.outputPath("messages-1280.png") });

    const bobPhone = await memberPage(bob, PHONE);
    await bobPhone.goto("/messages");
    const list = bobPhone.getByRole("region", { name: "Conversations" });
    await expect(list).toBeVisible();
    await expect(bobPhone.getByText("Select a conversation")).toBeHidden();
    await bobPhone.screenshot({ path: testInfo.outputPath("messages-390-list.png") });

    await list.getByRole("link", { name: new RegExp(ann.fullName) }).click();
    await expect(thread(bobPhone).getByText("A message to see on a phone", { exact: false })).toBeVisible();
    await expect(list).toBeHidden();
    await expect(box(bobPhone)).toBeVisible();
    const width = await bobPhone.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await bobPhone.screenshot({ path: testInfo.outputPath("messages-390-thread.png") });

    await bobPhone.getByRole("link", { name: "Back to conversations" }).click();
    await expect(list).toBeVisible();
    await expect(bobPhone.getByRole("link", { name: "Back to conversations" })).toBeHidden();
  });

  test("nobody else reads a conversation: another member gets 404 and an empty Messages card; messaging oneself is refused", async ({
    cast,
    memberPage,
  }) => {
    const { ann, bob, cat } = cast;
    const annPage = await memberPage(ann);
    await annPage.goto(`/messages?to=${bob.id}`);
    await send(annPage, "Between Ann and Bob only");
    const conversationId = conversationIdOf(annPage);

    const catPage = await memberPage(cat);
    const card = catPage.getByRole("region", { name: "Messages", exact: true });
    await expect(card.getByText("No Messages Yet")).toBeVisible();
    await expect(card.getByRole("link", { name: "Browse Requests" })).toHaveAttribute("href", "/referral-requests");
    await expect(card.getByRole("link", { name: "Browse Agents" })).toHaveAttribute("href", "/directory");

    const response = await catPage.goto(`/messages?conversation=${encodeURIComponent(conversationId)}`);
    expect(response?.status()).toBe(404);
    await expect(catPage.getByRole("heading", { name: "Conversation not found" })).toBeVisible();
    await expect(catPage.getByText("Between Ann and Bob only")).toHaveCount(0);

    const self = await catPage.goto(`/messages?to=${cat.id}`);
    expect(self?.status()).toBe(400);
    await expect(catPage.getByRole("alert")).toHaveText(CANNOT_MESSAGE_SELF);
    await expect(box(catPage)).toHaveCount(0);
  });

  test("the recipient is mailed once per 10 minutes per conversation", async ({ cast, memberPage, waitForReplica, outbox }) => {
    const { ann, bob } = cast;
    const annPage = await memberPage(ann);
    await annPage.goto(`/messages?to=${bob.id}`);
    await send(annPage, "First message, mailed");
    const mail = await outbox.waitFor((m) => m.to === bob.email);
    expect(mail.subject).toBe(`New message from ${ann.fullName} on Red River Referrals`);
    expect(mail.text).toContain("Brokerage: Archer Realty");
    expect(mail.text).toContain("Location: Austin, TX");
    expect(mail.text).toContain("Message: First message, mailed");
    const conversationId = conversationIdOf(annPage);
    expect(mail.text).toContain(`/messages?conversation=${encodeURIComponent(conversationId)}`);

    await send(annPage, "Second message, within 10 minutes");
    await send(annPage, "Third message, still within 10 minutes");
    const bobMails = async () => (await outbox.mails()).filter((m) => m.to === bob.email);
    expect(await bobMails()).toHaveLength(1);

    // Eleven minutes pass: the stored times of the last mail move back, as the clock would move on.
    moveMailTimesBack(conversationId, bob.email, 11);
    await waitForReplica();
    await send(annPage, "Fourth message, after the quiet time");
    await expect.poll(async () => (await bobMails()).length).toBe(2);
    expect((await bobMails())[0]?.text).toContain("Message: Fourth message, after the quiet time");
  });

  test("a message with invisible control characters is sent without them, and the sender is told beside the box", async ({
    cast,
    memberPage,
  }) => {
    const { ann, bob } = cast;
    const annPage = await memberPage(ann);
    await annPage.goto(`/messages?to=${bob.id}`);
    await box(annPage).fill("Bell\u0007 and escape\u001b removed");
    await annPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(thread(annPage).getByText("Bell and escape removed")).toBeVisible();
    await expect(annPage.getByRole("status").filter({ hasText: "Some invisible control characters were removed" })).toHaveText(
      "Your message was sent. Some invisible control characters were removed from it.",
    );
    await expect(box(annPage)).toHaveValue("");

    // The next message without any says nothing.
    await send(annPage, "A plain one");
    await expect(annPage.getByText("Some invisible control characters were removed")).toHaveCount(0);
  });
});
