import { readdirSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { action } from "../../app/routes/contact";
import type { WorkbookDriver } from "../../app/server/store/driver.server";
import { createReplica } from "../../app/server/store/replica.server";
import { startFakeSendgrid, type FakeSendgrid } from "../mocks/sendgrid";
import { postForm, testContext, sentMails } from "../support/services";

const message = {
  name: "Dana Reyes",
  email: "dana@example.com",
  category: "general",
  subject: "Hello",
  message: "A question",
};

async function callAction(fields: Record<string, string>, context = testContext()) {
  const result = await action({ request: postForm("/contact", fields), context, params: {} });
  return { result: result as unknown, context };
}

describe("contact action", () => {
  it("mails support once and redirects to the thank-you page", async () => {
    const { result, context } = await callAction(message);
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).headers.get("Location")).toBe("/contact/sent");
    const mails = await sentMails(context.services);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "support@example.test", replyTo: "dana@example.com", subject: "[General Question] Hello" });
  });

  it("answers bad input with 400 and the typed values", async () => {
    const { result, context } = await callAction({ ...message, email: "nope" });
    const { init, data } = result as {
      init: ResponseInit;
      data: { initialValue: Record<string, string>; error: Record<string, string[]> };
    };
    expect(init.status).toBe(400);
    expect(data.error.email).toEqual(["Please enter a valid email address"]);
    expect(data.initialValue.subject).toBe("Hello");
    expect(readdirSync(context.services.config.dataDir)).not.toContain("outbox");
  });

  it("stores the message as a Contact row", async () => {
    const { context } = await callAction({ ...message, agentLicense: "0123456" });
    expect(context.services.store.contact.all()).toMatchObject([
      {
        name: "Dana Reyes",
        email: "dana@example.com",
        category: "general",
        subject: "Hello",
        message: "A question",
        agentLicense: "0123456",
        state: "Not provided",
      },
    ]);
  });

  it("reports a message the store could not keep as not sent, mails nothing and keeps the input", async () => {
    const refusing: WorkbookDriver = {
      kind: "sheets",
      ensureTabs: async () => undefined,
      readTabs: async (requests) => requests.map(() => []),
      appendRows: () => Promise.reject(new Error("The service is currently unavailable.")),
      updateRow: () => Promise.reject(new Error("The service is currently unavailable.")),
      deleteRows: () => Promise.reject(new Error("The service is currently unavailable.")),
      close: async () => undefined,
    };
    const context = testContext({ store: createReplica(refusing, { refreshSeconds: 10, log: { info() {}, warn() {}, error() {} } }) });
    const { result } = await callAction(message, context);
    const { init, data } = result as {
      init: ResponseInit;
      data: { initialValue: Record<string, string>; error: Record<string, string[]> };
    };
    expect(init.status).toBe(503);
    expect(data.error[""]).toEqual(["Failed to send message. Please try again or email us directly at support@example.test"]);
    expect(data.initialValue.message).toBe("A question");
    expect(readdirSync(context.services.config.dataDir)).not.toContain("outbox");
  });
});

describe("contact action through SendGrid", () => {
  const apiKey = "SG.test-key";
  let sendgrid: FakeSendgrid;
  beforeAll(async () => {
    sendgrid = await startFakeSendgrid(apiKey);
  });
  afterAll(() => sendgrid.close());
  afterEach(() => vi.restoreAllMocks());

  const sendgridContext = (key = apiKey) =>
    testContext({}, { SENDGRID_API_KEY: key, SENDGRID_API_URL: sendgrid.url, MAIL_FROM: "no-reply@example.test" });

  it("delivers the mail to SendGrid with its sender, recipient, reply-to, subject and both bodies", async () => {
    const before = sendgrid.mails.length;
    const { result, context } = await callAction(message, sendgridContext());
    expect((result as Response).headers.get("Location")).toBe("/contact/sent");
    await context.services.notifier.idle();
    expect(sendgrid.mails.slice(before)).toEqual([
      {
        from: "no-reply@example.test",
        to: ["support@example.test"],
        replyTo: "dana@example.com",
        subject: "[General Question] Hello",
        text: expect.stringContaining("A question") as string,
        html: expect.stringContaining("A question") as string,
      },
    ]);
  });

  it("tries a refused mail again after a wait, and delivers it", async () => {
    sendgrid.refuseNext(429);
    const before = sendgrid.mails.length;
    const { context } = await callAction(message, sendgridContext());
    await context.services.notifier.idle();
    expect(sendgrid.mails.slice(before).map((mail) => mail.subject)).toEqual(["[General Question] Hello"]);
  });

  // Decision 0036: the Contact tab keeps the message before the page says it was sent; the mail is queued.
  it.each([401, 429] as const)(
    "keeps the message when SendGrid refuses the mail (%i on every try): logged and recorded as a failed claim",
    async (status) => {
      for (let i = 0; i < 3; i += 1) sendgrid.refuseNext(status);
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const before = sendgrid.mails.length;
      const { result, context } = await callAction(message, sendgridContext());
      expect((result as Response).headers.get("Location")).toBe("/contact/sent");
      expect(context.services.store.contact.all().map((row) => row.message)).toEqual(["A question"]);
      await context.services.notifier.idle();
      expect(sendgrid.mails).toHaveLength(before);
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining("could not be sent"),
        expect.objectContaining({ message: `SendGrid refused the mail: status ${status}` }),
      );
      const [row] = context.services.store.contact.all();
      expect(context.services.store.sendClaims.by("key", `contact:${row!.id}`).map((claim) => claim.outcome)).toEqual([
        "claimed",
        "failed",
      ]);
    },
  );

  it("is refused by SendGrid when the configured key is wrong: the message is kept and the failure logged", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { result, context } = await callAction(message, sendgridContext("SG.revoked"));
    expect((result as Response).headers.get("Location")).toBe("/contact/sent");
    await context.services.notifier.idle();
    expect(context.services.store.contact.all()).toHaveLength(1);
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining("could not be sent"),
      expect.objectContaining({ message: "SendGrid refused the mail: status 401" }),
    );
  });
});
