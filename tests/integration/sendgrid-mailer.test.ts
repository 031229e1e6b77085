import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSendgridMailer, MailError } from "../../app/server/mail/mailer.server";
import { startFakeSendgrid, type FakeSendgrid } from "../mocks/sendgrid";

const mail = { to: "bob@example.com", subject: "Hello", text: "Plain body", html: "<p>HTML body</p>", replyTo: "ann@example.com" };

describe("the SendGrid mailer against the Mail Send stand-in", () => {
  let sendgrid: FakeSendgrid;
  beforeAll(async () => {
    sendgrid = await startFakeSendgrid("SG.test-key");
  });
  afterAll(() => sendgrid.close());

  const mailer = () => createSendgridMailer("SG.test-key", "no-reply@example.test", sendgrid.url);

  it("sends a body SendGrid accepts: both parts, text first, with the reply-to address", async () => {
    await mailer().send(mail);
    expect(sendgrid.mails.at(-1)).toEqual({
      from: "no-reply@example.test",
      to: ["bob@example.com"],
      replyTo: "ann@example.com",
      subject: "Hello",
      text: "Plain body",
      html: "<p>HTML body</p>",
    });
  });

  it("sends attachments in SendGrid's shape", async () => {
    const attachment = {
      content: Buffer.from("%PDF-1.3").toString("base64"),
      filename: "agreement.pdf",
      type: "application/pdf",
      disposition: "attachment" as const,
    };
    await mailer().send({ ...mail, attachments: [attachment] });
    expect(sendgrid.mails.at(-1)?.attachments).toEqual([attachment]);
  });

  it("turns SendGrid's 400 for a body it refuses into a mail error", async () => {
    const before = sendgrid.mails.length;
    await expect(mailer().send({ ...mail, to: "not-an-address" })).rejects.toThrow(new MailError("SendGrid refused the mail: status 400"));
    expect(sendgrid.mails).toHaveLength(before);
  });
});
