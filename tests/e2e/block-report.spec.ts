import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { agentIdFromEmail } from "../../app/domain/agent-id";
import { conversationIdFor } from "../../app/domain/conversation";
import { BLOCKED_CANNOT_MESSAGE } from "../../app/domain/moderation";
import { REQUESTS_TAB, WORKBOOK, type Agent } from "../../app/domain/workbook/tabs";
import { expect, test as base } from "./fixtures";
import { updateAgentRow } from "./support/agents";
import { seedMessages } from "./support/messages";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";
import { insertRows, updateRow } from "./support/store-file";

type Cast = { ann: Agent; bob: Agent };

/** Two fresh approved agents for the test and project, and each member's own logged-in browser. */
const test = base.extend<{ cast: Cast }>({
  cast: async ({ seedAgent, waitForReplica }, use, testInfo) => {
    const tag = `${testInfo.project.name}-${randomUUID().slice(0, 8)}`;
    const agent = (first: string, last: string) =>
      seedAgent({ fullName: `${first} ${last}`, email: `${first.toLowerCase()}-${tag}@example.com` });
    const cast = { ann: agent("Ann", "Archer"), bob: agent("Bob", "Brooks") };
    await waitForReplica();
    await use(cast);
  },
});

const profilePath = (agent: Agent) => `/agent/${agentIdFromEmail(agent.email)}`;

async function openProfile(page: Page, agent: Agent): Promise<void> {
  await page.goto(profilePath(agent));
  await expect(page.getByRole("heading", { level: 1, name: agent.fullName })).toBeVisible();
}

const messagesLog = (page: Page) => page.getByRole("log", { name: "Messages" });

async function requestTitles(page: Page, token: string): Promise<string[]> {
  await page.goto(`/referral-requests?q=${token}`);
  return page.getByRole("heading", { name: new RegExp(token) }).allTextContents();
}

test("a member blocks another from the profile: neither sees the other's requests or Message button, and unblocking restores them", async ({
  cast,
  memberPage,
  waitForReplica,
}) => {
  const token = uniqueToken();
  seedRequests([testRequest(cast.ann, { title: `Ann's buyer ${token}` }), testRequest(cast.bob, { title: `Bob's seller ${token}` })]);
  await waitForReplica();
  const ann = await memberPage(cast.ann);
  const bob = await memberPage(cast.bob);
  expect(await requestTitles(ann, token)).toEqual([`Bob's seller ${token}`]);

  await openProfile(ann, cast.bob);
  await ann.getByRole("button", { name: `Block ${cast.bob.fullName}` }).click();
  await expect(ann.getByText(`You blocked ${cast.bob.fullName}.`)).toBeVisible();
  await expect(ann.getByRole("link", { name: "Send Message" })).toHaveCount(0);
  expect(await requestTitles(ann, token)).toEqual([]);

  // The other way too: Bob sees none of Ann's requests, no Send Message on her profile, and cannot write to her.
  expect(await requestTitles(bob, token)).toEqual([]);
  await openProfile(bob, cast.ann);
  await expect(bob.getByRole("link", { name: "Send Message" })).toHaveCount(0);
  await bob.goto(`/messages?to=${encodeURIComponent(cast.ann.email)}`);
  await expect(bob.getByText(BLOCKED_CANNOT_MESSAGE)).toBeVisible();
  await expect(bob.getByRole("textbox", { name: "Message" })).toHaveCount(0);

  await ann.goto("/member-dashboard");
  await ann.getByRole("link", { name: "Blocked members" }).click();
  await expect(ann.getByRole("heading", { level: 1, name: "Blocked Members" })).toBeVisible();
  await ann.getByRole("button", { name: `Unblock ${cast.bob.fullName}` }).click();
  await expect(ann.getByText("You haven't blocked anyone.", { exact: false })).toBeVisible();
  expect(await requestTitles(ann, token)).toEqual([`Bob's seller ${token}`]);
});

test("a member blocks another from the conversation, and the other's next message is refused", async ({ cast, memberPage }) => {
  const ann = await memberPage(cast.ann);
  const bob = await memberPage(cast.bob);
  await ann.goto(`/messages?to=${encodeURIComponent(cast.bob.email)}`);
  await ann.getByRole("textbox", { name: "Message" }).fill("Hello Bob");
  await ann.getByRole("button", { name: "Send", exact: true }).click();
  await expect(ann).toHaveURL(/conversation=/);

  await bob.goto(`/messages?conversation=${encodeURIComponent(conversationIdFor(cast.ann.id, cast.bob.id))}`);
  await expect(messagesLog(bob).getByText("Hello Bob")).toBeVisible();
  // Ann's page still has the message box; Bob blocks her from the conversation.
  await bob.getByRole("button", { name: `Block ${cast.ann.fullName}` }).click();
  await expect(bob.getByText(BLOCKED_CANNOT_MESSAGE)).toBeVisible();
  await expect(bob.getByRole("button", { name: `Unblock ${cast.ann.fullName}` })).toBeVisible();

  await ann.getByRole("textbox", { name: "Message" }).fill("Are you there?");
  await ann.getByRole("button", { name: "Send", exact: true }).click();
  // Refused, and the page now says why instead of offering the message box.
  await expect(ann.getByText(BLOCKED_CANNOT_MESSAGE).first()).toBeVisible();
  await expect(messagesLog(ann).getByText("Are you there?")).toHaveCount(0);
});

test("a member reports a request: staff get one mail, and a second report is told it was already made", async ({
  cast,
  memberPage,
  outbox,
  waitForReplica,
}) => {
  const token = uniqueToken();
  const request = testRequest(cast.bob, { title: `Too good to be true ${token}` });
  seedRequests([request]);
  await waitForReplica();
  const ann = await memberPage(cast.ann);
  await ann.goto(`/referral-requests/${request.id}`);
  await ann.getByRole("link", { name: "Report", exact: true }).click();
  await expect(ann.getByRole("heading", { level: 1, name: "Report a request" })).toBeVisible();

  // No reason: the message beside the field, the note kept.
  await ann.getByLabel("Note for staff").fill(`Posted five times ${token}`);
  await ann.getByRole("button", { name: "Send Report" }).click();
  await expect(ann.getByText("Please choose a reason")).toBeVisible();
  await expect(ann.getByLabel("Note for staff")).toHaveValue(`Posted five times ${token}`);

  await ann.getByLabel("Reason").selectOption({ label: "Spam" });
  await ann.getByRole("button", { name: "Send Report" }).click();
  await expect(ann.getByText("Thank you. Your report was sent to staff.")).toBeVisible();
  const mail = await outbox.waitFor((sent) => sent.to === "support@example.test" && sent.text.includes(token));
  expect(mail.subject).toContain("Spam");
  expect(mail.text).toContain(cast.bob.email);

  // The thanks show once: loaded again, the page says the item was already reported.
  await ann.reload();
  await expect(ann.getByText("You already reported this.", { exact: false })).toBeVisible();
  await expect(ann.getByText("Thank you. Your report was sent to staff.")).toHaveCount(0);
  await expect(ann.getByRole("button", { name: "Send Report" })).toHaveCount(0);
  expect((await outbox.mails()).filter((sent) => sent.text.includes(token))).toHaveLength(1);
});

test("staff hide a request and a message, and suspend an agent, from the sheet", async ({ cast, memberPage, waitForReplica }) => {
  const token = uniqueToken();
  const hiddenRequest = testRequest(cast.bob, { title: `Spammy ${token}` });
  const otherRequest = testRequest(cast.bob, { title: `Decent ${token}` });
  seedRequests([hiddenRequest, otherRequest]);
  const conversationId = conversationIdFor(cast.ann.id, cast.bob.id);
  const message = (text: string, minutesAgo: number) => ({
    id: randomUUID(),
    conversationId,
    fromEmail: cast.bob.email,
    toEmail: cast.ann.email,
    text,
    createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  });
  const rude = message(`Rude words ${token}`, 5);
  seedMessages([message(`Kind words ${token}`, 10), rude]);
  await waitForReplica();
  const ann = await memberPage(cast.ann);
  const bob = await memberPage(cast.bob);
  expect((await requestTitles(ann, token)).sort()).toEqual([`Decent ${token}`, `Spammy ${token}`]);

  // As staff in the sheet: the request's status, and a Moderation row hiding the message.
  updateRow(REQUESTS_TAB, hiddenRequest.id, { status: "hidden" });
  insertRows(WORKBOOK.moderation, [
    {
      id: `m-${token}`,
      kind: "message",
      itemId: rude.id,
      action: "hidden",
      note: "Harassment",
      staffEmail: "staff@example.com",
      createdAt: new Date().toISOString(),
    },
  ]);
  await waitForReplica();
  expect(await requestTitles(ann, token)).toEqual([`Decent ${token}`]);
  await ann.goto(`/referral-requests/${hiddenRequest.id}`);
  await expect(ann.getByRole("heading", { name: "Request not found" })).toBeVisible();
  await ann.goto(`/messages?conversation=${encodeURIComponent(conversationId)}`);
  await expect(messagesLog(ann).getByText(`Kind words ${token}`)).toBeVisible();
  await expect(ann.getByText(`Rude words ${token}`)).toHaveCount(0);

  updateAgentRow(cast.bob.id, { status: "suspended" });
  await waitForReplica();
  await bob.goto("/member-dashboard");
  await expect(bob).toHaveURL(/\/member-login/);
  expect(await requestTitles(ann, token)).toEqual([]);
  await ann.goto(profilePath(cast.bob));
  await expect(ann.getByRole("heading", { name: "Agent Not Found" })).toBeVisible();
});
