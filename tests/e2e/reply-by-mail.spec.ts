import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import type { Agent } from "../../app/domain/workbook/tabs";
import { basicAuth, parsedPost } from "../mocks/sendgrid-inbound";
import { expect, test as base } from "./fixtures";
import { E2E_INBOUND_SECRET, e2eBaseUrl } from "./support/env";
import { screenshotForPeople } from "./support/screenshots";

const PHONE = { width: 390, height: 844 };

const test = base.extend<{ cast: { maria: Agent; james: Agent } }>({
  cast: async ({ seedAgent, waitForReplica }, use, testInfo) => {
    const tag = `${testInfo.project.name}-${randomUUID().slice(0, 8)}`;
    const cast = {
      maria: seedAgent({ fullName: "Maria Delgado", email: `maria-${tag}@example.com`, city: "Dallas", state: "TX" }),
      james: seedAgent({ fullName: "James Whitfield", email: `james-${tag}@example.com`, city: "Tyler", state: "TX" }),
    };
    await waitForReplica();
    await use(cast);
  },
});

const thread = (page: Page) => page.getByRole("region", { name: /^Conversation with/ });

/** What SendGrid's Inbound Parse does with James's reply: a multipart post to the running server. */
async function postReply(mail: { from: string; to: string; text: string; messageId: string }): Promise<Response> {
  const { body, contentType } = parsedPost(mail);
  return fetch(`${e2eBaseUrl}/mail/inbound`, {
    method: "POST",
    body: new Uint8Array(body),
    headers: { "Content-Type": contentType, Authorization: basicAuth(E2E_INBOUND_SECRET) },
  });
}

test.describe("replying to a notification mail", () => {
  test.describe.configure({ timeout: 60_000 });

  test("puts the reply in the open conversation, live with JavaScript, after a reload without, marked as by e-mail", async ({
    cast,
    memberPage,
    outbox,
  }, testInfo) => {
    const live = testInfo.project.name === "js-on";
    const { maria, james } = cast;
    const mariaPage = await memberPage(maria);
    await mariaPage.goto(`/messages?to=${james.id}`);
    await mariaPage.getByRole("textbox", { name: "Message" }).fill("Can you take a buyer in Tyler next month?");
    await mariaPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(mariaPage).toHaveURL(/\/messages\?conversation=/);

    const notice = await outbox.waitFor((mail) => mail.to === james.email);
    expect(notice.replyTo).toMatch(/^reply\+[a-z2-7]+@reply\.e2e\.example\.test$/);
    expect(notice.text).toContain("Reply to this e-mail to answer in Red River Referrals.");
    testInfo.attachments.push({ name: "notification mail", contentType: "text/plain", body: Buffer.from(notice.text) });

    const reply = "Sounds good, Thursday works for a showing.";
    const quoted = `${reply}\n\nOn Sat, Nov 28, 2026 at 3:14 PM Red River Referrals wrote:\n> ${notice.text.split("\n")[0]}`;
    const mail = {
      from: `James Whitfield <${james.email}>`,
      to: notice.replyTo!,
      text: quoted,
      messageId: `<${randomUUID()}@mail.example>`,
    };
    const posted = Date.now();
    expect((await postReply(mail)).status).toBe(200);
    if (!live) await mariaPage.reload();
    const bubble = thread(mariaPage).getByText(reply, { exact: true });
    await expect(bubble).toBeVisible({ timeout: live ? 1_000 : 5_000 });
    if (live) expect(Date.now() - posted).toBeLessThan(1_500);
    await expect(thread(mariaPage).getByText("by e-mail")).toHaveCount(1);
    await expect(thread(mariaPage).getByText("On Sat, Nov 28")).toHaveCount(0);

    await screenshotForPeople(mariaPage, testInfo, "reply-by-mail-1280", { withoutScriptsToo: true });
    await mariaPage.setViewportSize(PHONE);
    await screenshotForPeople(mariaPage, testInfo, "reply-by-mail-390", { withoutScriptsToo: true });

    // The same mail again (SendGrid's retry) stores nothing new.
    expect(await (await postReply(mail)).text()).toBe("Not stored: duplicate.");
    await mariaPage.reload();
    await expect(thread(mariaPage).getByText(reply, { exact: true })).toHaveCount(1);
  });
});
