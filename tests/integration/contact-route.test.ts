import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { action } from "../../app/routes/contact";
import { MailError, type Mailer } from "../../app/server/mail/mailer.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { postForm, testContext } from "../support/services";

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
    const mails = await readOutbox(path.join(context.services.config.dataDir, "outbox"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "support@example.test", replyTo: "dana@example.com", subject: "[General Question] Hello" });
  });

  it("answers bad input with 400 and the typed values", async () => {
    const { result, context } = await callAction({ ...message, email: "nope" });
    const { init, data } = result as { init: ResponseInit; data: { initialValue: Record<string, string>; error: Record<string, string[]> } };
    expect(init.status).toBe(400);
    expect(data.error.email).toEqual(["Please enter a valid email address"]);
    expect(data.initialValue.subject).toBe("Hello");
    expect(readdirSync(context.services.config.dataDir)).not.toContain("outbox");
  });

  it("reports a failed send with the spec's message and keeps the input", async () => {
    const failing: Mailer = { driver: "sendgrid", send: () => Promise.reject(new MailError("down")) };
    const { result } = await callAction(message, testContext({ mailer: failing }));
    const { init, data } = result as { init: ResponseInit; data: { initialValue: Record<string, string>; error: Record<string, string[]> } };
    expect(init.status).toBe(503);
    expect(data.error[""]).toEqual(["Failed to send message. Please try again or email us directly at support@example.test"]);
    expect(data.initialValue.message).toBe("A question");
  });
});
