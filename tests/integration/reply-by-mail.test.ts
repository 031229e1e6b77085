/**
 * Answering a conversation by replying to its notification mail: the reply address the mails
 * carry, and SendGrid's Inbound Parse posts (parsed and raw modes, as tests/mocks/sendgrid-inbound.ts
 * builds them) through the real route, parser and store: real-world reply layouts, charsets,
 * attachments, and everything refused with nothing stored.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import { REPLY_BY_MAIL_LINE } from "../../app/domain/mail-reply";
import { conversationOpenings } from "../../app/domain/track-record";
import type { Agent, Message } from "../../app/domain/workbook/tabs";
import { action } from "../../app/routes/mail.inbound";
import type { StoredMail } from "../../app/server/mail/mailer.server";
import { invitationMail } from "../../app/server/mail/invitation-mail.server";
import { replyAddressFor, replyToken } from "../../app/server/mail/reply-address.server";
import { sendMessage } from "../../app/server/messages/send.server";
import { respondToRequest } from "../../app/server/referral-requests/respond.server";
import { setBlock } from "../../app/server/moderation/blocks.server";
import { basicAuth, multipart, parsedPost, rawPost, type InboundPost } from "../mocks/sendgrid-inbound";
import { agentRecord, requestRecord } from "../support/records";
import { sentMails, testContext } from "../support/services";

const SECRET = "inbound-secret-0123456789abcdef";
const DOMAIN = "reply.example.test";
const SESSION_SECRET = "session-secret-for-reply-addresses";
const INBOUND_ENV = { INBOUND_DOMAIN: DOMAIN, INBOUND_SECRET: SECRET, SESSION_SECRET };

const maria = agentRecord({ id: "rec-maria", fullName: "Maria Delgado", email: "maria@example.com", city: "Dallas", state: "TX" });
const james = agentRecord({ id: "rec-james", fullName: "James Whitfield", email: "james@gmail.example", city: "Tyler", state: "TX" });
const conversation = conversationIdFor(maria.id, james.id);

const opened: AppLoadContext[] = [];
afterEach(async () => {
  // The other agent's notification of a stored reply is still queued when a test ends.
  await Promise.all(opened.splice(0).map(async ({ services }) => (await services.notifier.idle(), services.store.stop())));
});

async function contextWith(agents: readonly Agent[], env: Record<string, string> = INBOUND_ENV): Promise<AppLoadContext> {
  const context = testContext({}, env);
  opened.push(context);
  await context.services.store.refresh();
  for (const agent of agents) await context.services.store.agents.insert(agent);
  return context;
}

/** Maria writes to James; the notification mail James gets. */
async function notifyJames(context: AppLoadContext): Promise<StoredMail> {
  await sendMessage(context.services, {
    sender: maria,
    recipient: james,
    conversationId: conversation,
    text: "Can you take a buyer in Tyler next month?",
    request: new Request("http://localhost/messages"),
  });
  const mail = (await sentMails(context.services)).find((each) => each.to === james.email);
  if (!mail) throw new Error("James was not mailed");
  return mail;
}

function post(context: AppLoadContext, inbound: InboundPost, password = SECRET): Promise<Response> {
  const request = new Request("http://localhost/mail/inbound", {
    method: "POST",
    body: new Uint8Array(inbound.body),
    headers: { "Content-Type": inbound.contentType, Authorization: basicAuth(password) },
  });
  return action({ request, context, params: {} }) as Promise<Response>;
}

async function messagesOf(context: AppLoadContext): Promise<Message[]> {
  return (await context.services.store.messages.readStored()).filter((message) => message.conversationId === conversation);
}

async function fromJames(context: AppLoadContext): Promise<Message[]> {
  return (await messagesOf(context)).filter((message) => message.fromEmail === james.email);
}

const QUOTED_GMAIL = [
  "",
  "On Sat, Nov 28, 2026 at 3:14 PM Red River Referrals <no-reply@redriverreferrals.com> wrote:",
  "> Hello James, Maria Delgado sent you a message on Red River Referrals.",
  ">",
  "> Message: Can you take a buyer in Tyler next month?",
].join("\n");

describe("the reply address", () => {
  it("is in the notification's Reply-To, with the line saying what replying does, and names no one's address", async () => {
    const context = await contextWith([maria, james]);
    const mail = await notifyJames(context);
    expect(mail.replyTo).toMatch(new RegExp(`^reply\\+[a-z2-7]+@${DOMAIN.replace(/\./g, "\\.")}$`));
    const local = mail.replyTo!.split("@")[0]!;
    expect(local.length).toBeLessThanOrEqual(64);
    expect(mail.replyTo).not.toContain("maria");
    expect(mail.replyTo).not.toContain("james");
    expect(mail.text).toContain(REPLY_BY_MAIL_LINE);
    expect(mail.html).toContain("Reply to this e-mail to answer in Red River Referrals");
  });

  it("is left out, with the line, when no inbound domain is configured", async () => {
    const context = await contextWith([maria, james], {});
    const mail = await notifyJames(context);
    expect(mail.replyTo).toBeUndefined();
    expect(mail.text).not.toContain(REPLY_BY_MAIL_LINE);
  });

  it("answers 404 at the endpoint when replies by mail are off", async () => {
    const context = await contextWith([maria, james], {});
    await expect(post(context, parsedPost({ from: james.email, to: `reply+x@${DOMAIN}`, text: "Hi" }))).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("the mails that open a conversation", () => {
  it("a response mail's reply goes into the poster's conversation with the responder", async () => {
    const context = await contextWith([maria, james]);
    const request = await context.services.store.requests.insert(requestRecord(maria, { title: "Buyer in Tyler" }));
    const result = await respondToRequest(context.services, {
      requestId: request.id,
      member: james,
      message: "I know Tyler well.",
      now: new Date(),
      link: "http://localhost/referral-requests",
    });
    expect(result.ok).toBe(true);
    const mail = (await sentMails(context.services)).find((each) => each.to === maria.email)!;
    expect(mail.replyTo).toMatch(/^reply\+[a-z2-7]+@reply\.example\.test$/);
    expect(mail.text).toContain(`${REPLY_BY_MAIL_LINE} Your reply goes to James Whitfield as a message.`);

    await post(context, parsedPost({ from: maria.email, to: mail.replyTo!, text: "Great, let's talk." }));
    const stored = (await messagesOf(context)).map((message) => [message.fromEmail, message.toEmail, message.text]);
    expect(stored).toEqual([[maria.email, james.email, "Great, let's talk."]]);
  });

  it("an invitation's reply goes to the poster; without an inbound domain the poster's address stays the Reply-To", async () => {
    const context = await contextWith([maria, james]);
    const request = requestRecord(maria, { title: "Buyer in Tyler" });
    const address = replyAddressFor(context.services.config, james, maria);
    const mail = invitationMail({ request, posterName: "Maria Delgado", agent: james, link: "http://x/r", replyAddress: address });
    expect(mail.replyTo).toBe(address);
    expect(mail.text).toContain(`${REPLY_BY_MAIL_LINE} Your reply goes to Maria Delgado as a message.`);
    expect(invitationMail({ request, posterName: "Maria Delgado", agent: james, link: "http://x/r" }).replyTo).toBe(maria.email);

    await post(context, parsedPost({ from: james.email, to: address!, text: "Happy to help." }));
    expect((await fromJames(context)).map((message) => [message.toEmail, message.text])).toEqual([[maria.email, "Happy to help."]]);
  });
});

describe("a reply by mail", () => {
  it("is stored once as James's message, cut from Gmail's quote, marked as come by mail, and Maria is told as for any message", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const response = await post(
      context,
      parsedPost({ from: `James Whitfield <${james.email}>`, to: replyTo!, text: `Sounds good, Thursday works.${QUOTED_GMAIL}` }),
    );
    expect(response.status).toBe(200);
    const [reply, ...more] = await fromJames(context);
    expect(more).toEqual([]);
    expect(reply).toMatchObject({ text: "Sounds good, Thursday works.", toEmail: maria.email, via: "email" });

    // What a message sent on the site does: Maria's unread count, her notification, and James's reply time.
    const summaries = await context.services.messageQueries.summaries(maria);
    expect(summaries.find((each) => each.conversationId === conversation)?.unread).toBe(1);
    const toMaria = (await sentMails(context.services)).filter((mail) => mail.to === maria.email);
    expect(toMaria.map((mail) => mail.subject)).toEqual(["New message from James Whitfield on Red River Referrals"]);
    expect(conversationOpenings(await messagesOf(context))).toEqual([
      { at: expect.any(String), to: james.email, replyAt: reply!.createdAt },
    ]);
  });

  it.each([
    [
      "Outlook",
      "Yes, I can take the buyer.\r\n\r\nThanks,\r\nJames\r\n\r\n________________________________\r\nFrom: Red River Referrals <no-reply@redriverreferrals.com>\r\nSent: Saturday, November 28, 2026 3:14 PM\r\nTo: James Whitfield\r\nSubject: New message from Maria Delgado\r\n\r\nHello James,\r\n",
      "Yes, I can take the buyer.\n\nThanks,\nJames",
    ],
    [
      "Apple Mail on an iPhone",
      "Perfect, call me tomorrow.\n\nSent from my iPhone\n\n> On Nov 28, 2026, at 3:14 PM, Red River Referrals <no-reply@redriverreferrals.com> wrote:\n>\n> Hello James\n",
      "Perfect, call me tomorrow.",
    ],
    ["a signature", "Short answer: yes.\n\n-- \nJames Whitfield | Whitfield Realty\n903-555-0100\n", "Short answer: yes."],
  ])("from %s keeps only what was written", async (_layout, text, expected) => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    await post(context, parsedPost({ from: james.email, to: replyTo!, text }));
    expect((await fromJames(context)).map((message) => message.text)).toEqual([expected]);
  });

  it("in HTML only is read as plain text without Gmail's quoted original", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const html =
      '<div dir="ltr">Works for me &amp; my client.<br>Call at <b>3pm</b>?<div><br></div></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sat, Nov 28, 2026 Red River Referrals wrote:<br></div><blockquote class="gmail_quote">Hello James<br><script>alert(1)</script></blockquote></div>';
    await post(context, parsedPost({ from: james.email, to: replyTo!, html }));
    expect((await fromJames(context)).map((message) => message.text)).toEqual(["Works for me & my client.\nCall at 3pm?"]);
  });

  it.each(["windows-1252", "iso-8859-1"])("in %s is decoded by the charset SendGrid names", async (charset) => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    await post(
      context,
      parsedPost({ from: james.email, to: replyTo!, text: "Sí, el café está listo. Grüße", charsets: { text: charset } }),
    );
    expect((await fromJames(context)).map((message) => message.text)).toEqual(["Sí, el café está listo. Grüße"]);
  });

  it("with an attachment stores the text and nothing of the file", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200_000, 7)]);
    const response = await post(
      context,
      parsedPost({
        from: james.email,
        to: replyTo!,
        text: "Here is the listing photo.",
        attachments: [{ filename: "listing.jpg", type: "image/jpeg", content: photo }],
      }),
    );
    expect(response.status).toBe(200);
    expect((await fromJames(context)).map((message) => message.text)).toEqual(["Here is the listing photo."]);
  });

  it("posted in raw mode is parsed from its MIME (quoted-printable, Outlook's quote)", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const mime = [
      `From: James Whitfield <${james.email}>`,
      `To: ${replyTo}`,
      "Subject: RE: New message from Maria Delgado",
      "Message-ID: <raw-1@mail.example.test>",
      "Date: Sat, 28 Nov 2026 16:00:00 -0600",
      "MIME-Version: 1.0",
      'Content-Type: text/plain; charset="iso-8859-1"',
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Se=F1or Delgado, I can show it Friday.",
      "",
      "From: Red River Referrals <no-reply@redriverreferrals.com>",
      "Sent: Saturday, November 28, 2026 3:14 PM",
      "Subject: New message",
      "",
      "Hello James",
    ].join("\n");
    await post(context, rawPost(mime, { from: james.email, to: replyTo! }));
    expect((await fromJames(context)).map((message) => message.text)).toEqual(["Señor Delgado, I can show it Friday."]);
  });

  it("is stored once per Message-ID: the provider's resend stores nothing new", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const mail = { from: james.email, to: replyTo!, text: "Once only.", messageId: "<same@mail.example.test>" };
    expect((await post(context, parsedPost(mail))).status).toBe(200);
    const again = await post(context, parsedPost(mail));
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("duplicate");
    expect((await fromJames(context)).map((message) => message.text)).toEqual(["Once only."]);
  });

  it("reaches the address even when the mail system lower-cased it or it is only in the envelope", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const upper = replyTo!.replace(/^reply\+/, "REPLY+").toUpperCase();
    await post(context, parsedPost({ from: james.email, to: upper, text: "Upper case address." }));
    expect((await fromJames(context)).map((message) => message.text)).toEqual(["Upper case address."]);
  });
});

describe("a refused reply stores nothing and is answered 200", () => {
  async function refusedCase(
    mail: (replyTo: string) => Parameters<typeof parsedPost>[0],
    setUp: (context: AppLoadContext) => Promise<void> = async () => undefined,
  ) {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    await setUp(context);
    const before = (await sentMails(context.services)).length;
    const response = await post(context, parsedPost(mail(replyTo!)));
    const mailsBack = (await sentMails(context.services)).slice(0, -before || undefined);
    return { response, stored: await fromJames(context), mailsBack, context };
  }

  it("a forged token: no mail back", async () => {
    const forged = `reply+${"a".repeat(42)}@${DOMAIN}`;
    const { response, stored, mailsBack } = await refusedCase(() => ({ from: james.email, to: forged, text: "Let me in" }));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("forged");
    expect(stored).toEqual([]);
    expect(mailsBack).toEqual([]);
  });

  it("a token whose signature was made with another secret", async () => {
    const other = replyToken(["another secret entirely"], james.id, maria.id, new Date());
    const { stored } = await refusedCase(() => ({ from: james.email, to: `reply+${other}@${DOMAIN}`, text: "Hi" }));
    expect(stored).toEqual([]);
  });

  it("an expired token (over 90 days): the member is told", async () => {
    const old = replyToken([SESSION_SECRET], james.id, maria.id, new Date(Date.now() - 91 * 24 * 3600 * 1000));
    const context = await contextWith([maria, james]);
    const response = await post(context, parsedPost({ from: james.email, to: `reply+${old}@${DOMAIN}`, text: "Late answer" }));
    expect(await response.text()).toContain("expired");
    expect(await fromJames(context)).toEqual([]);
    const [back] = await sentMails(context.services);
    expect(back).toMatchObject({ to: james.email, subject: "Your reply was not added on Red River Referrals" });
    expect(back!.text).toContain("more than 90 days old");
    expect(back!.text).toContain(`/messages?conversation=${encodeURIComponent(conversation)}`);
  });

  it("a sender other than the member: told at the profile's address, never the From", async () => {
    const { stored, mailsBack } = await refusedCase((to) => ({ from: "someone@elsewhere.example", to, text: "Hijack" }));
    expect(stored).toEqual([]);
    expect(mailsBack.map((mail) => mail.to)).toEqual([james.email]);
    expect(mailsBack[0]!.text).toContain("an address other than the one on your profile");
    expect(mailsBack[0]!.text).not.toContain("Hijack");
  });

  it.each([
    ["SPF failing and no DKIM", { spf: "fail", dkim: "none" }],
    ["DKIM passing for another domain only", { spf: "softfail", dkim: "{@mailer.example : pass}" }],
    ["SPF passing for another envelope domain", { spf: "pass", dkim: "none", envelopeFrom: "bounce@mailer.example" }],
  ])("an unauthenticated sender (%s)", async (_case, authentication) => {
    const { stored, mailsBack } = await refusedCase((to) => ({ from: james.email, to, text: "Spoofed", ...authentication }));
    expect(stored).toEqual([]);
    expect(mailsBack[0]!.text).toContain("did not confirm that it came from your address");
  });

  it("a suspended member", async () => {
    const { stored, mailsBack } = await refusedCase(
      (to) => ({ from: james.email, to, text: "Still here" }),
      async (context) => void (await context.services.store.agents.update(james.id, { status: "suspended" })),
    );
    expect(stored).toEqual([]);
    expect(mailsBack[0]!.text).toContain("your account is not active");
  });

  it("a conversation the other agent has left", async () => {
    const { stored, mailsBack } = await refusedCase(
      (to) => ({ from: james.email, to, text: "Hello?" }),
      async (context) => void (await context.services.store.agents.update(maria.id, { status: "rejected" })),
    );
    expect(stored).toEqual([]);
    expect(mailsBack[0]!.text).toContain("can no longer receive messages");
  });

  it("a conversation with a block between the two", async () => {
    const { stored, mailsBack } = await refusedCase(
      (to) => ({ from: james.email, to, text: "Blocked?" }),
      async (context) => setBlock(context.services, { blocker: maria, blocked: james, on: true, now: new Date() }),
    );
    expect(stored).toEqual([]);
    expect(mailsBack[0]!.text).toContain("blocked");
  });

  it("a reply with nothing above the quote", async () => {
    const { stored, mailsBack } = await refusedCase((to) => ({ from: james.email, to, text: QUOTED_GMAIL }));
    expect(stored).toEqual([]);
    expect(mailsBack[0]!.text).toContain("no text was left");
  });

  it("an out-of-office: dropped without a mail back", async () => {
    const autoHeaders = (to: string) =>
      [`From: ${james.email}`, `To: ${to}`, "Subject: Out of office", "Auto-Submitted: auto-replied", "Message-ID: <ooo@x>"].join("\n");
    for (const headers of [
      autoHeaders,
      (to: string) => `From: ${james.email}\nTo: ${to}\nX-Autoreply: yes\nMessage-ID: <ooo2@x>`,
      (to: string) => `From: ${james.email}\nTo: ${to}\nPrecedence: bulk\nMessage-ID: <ooo3@x>`,
    ]) {
      const { response, stored, mailsBack } = await refusedCase((to) => ({
        from: james.email,
        to,
        text: "I am away until Monday.",
        headers: headers(to),
      }));
      expect(await response.text()).toContain("automatic");
      expect(stored).toEqual([]);
      expect(mailsBack).toEqual([]);
    }
  });

  it("tells the member at most once an hour", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const before = (await sentMails(context.services)).length;
    for (const text of ["first", "second", "third"])
      await post(context, parsedPost({ from: "other@elsewhere.example", to: replyTo!, text }));
    expect((await sentMails(context.services)).length - before).toBe(1);
  });
});

describe("the endpoint", () => {
  it("refuses a post without the webhook's password", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const response = await post(context, parsedPost({ from: james.email, to: replyTo!, text: "Hi" }), "wrong-password-0123456789");
    expect(response.status).toBe(401);
    expect(await fromJames(context)).toEqual([]);
  });

  it("drops a body over the size limit unread, with a 200", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const huge = parsedPost({
      from: james.email,
      to: replyTo!,
      text: "Big",
      attachments: [{ filename: "scan.pdf", type: "application/pdf", content: Buffer.alloc(10 * 1024 * 1024 + 1) }],
    });
    const response = await post(context, huge);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("size limit");
    expect(await fromJames(context)).toEqual([]);
  });

  it("refuses a malformed multipart with a 400, storing nothing", async () => {
    const context = await contextWith([maria, james]);
    const { replyTo } = await notifyJames(context);
    const good = parsedPost({ from: james.email, to: replyTo!, text: "Cut off" });
    const boundary = good.contentType.split("boundary=")[1]!;
    for (const broken of [
      { body: good.body.subarray(0, good.body.length / 2), contentType: good.contentType },
      { body: Buffer.from("to=x&text=y"), contentType: "application/x-www-form-urlencoded" },
      { body: good.body, contentType: "multipart/form-data; boundary=not-the-boundary" },
      multipart([{ name: "unrelated", value: `--${boundary}` }]),
    ]) {
      const response = await post(context, broken);
      expect(response.status).toBe(400);
    }
    expect(await fromJames(context)).toEqual([]);
  });
});
