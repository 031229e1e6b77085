import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTICES } from "../../app/domain/notices";
import { MAIL_KINDS, type MailKind } from "../../app/domain/notifications";
import type { Agent } from "../../app/domain/workbook/tabs";
import * as forgotPassword from "../../app/routes/forgot-password";
import * as messages from "../../app/routes/messages";
import * as postRequest from "../../app/routes/post-request";
import * as respond from "../../app/routes/referral-requests.$id.respond";
import * as settings from "../../app/routes/settings.notifications";
import * as unsubscribe from "../../app/routes/unsubscribe";
import { createOutboxMailer, type Mail, type StoredMail } from "../../app/server/mail/mailer.server";
import { createNotifier } from "../../app/server/notifier/notifier.server";
import { createUnsubscribeToken, UNSUBSCRIBE_LINK_TTL_SECONDS } from "../../app/server/mail/unsubscribe.server";
import { outboxDirectory } from "../../app/server/service-lifecycle.server";
import { startFakeSendgrid, type FakeSendgrid } from "../mocks/sendgrid";
import { requestForm } from "../support/records";
import { insertAgent, testContext, sentMails } from "../support/services";
import { editAgentRow } from "./accounts-support";
import { get, insertRequest, outcome, post, sessionCookie } from "./requests-support";

type Handler = (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => unknown;

async function call(handler: unknown, request: Request, context: AppLoadContext, params: Record<string, string> = {}) {
  return outcome(() => (handler as Handler)({ request, context, params }));
}

/** The status and body of what a loader or action answered (a Response, or `data()`'s result). */
async function answer(value: unknown): Promise<{ status: number; body: unknown; location: string | null }> {
  if (value instanceof Response) return { status: value.status, body: null, location: value.headers.get("Location") };
  const result = value as { init?: ResponseInit | null; data?: unknown };
  if (result && typeof result === "object" && "data" in result && "init" in result)
    return { status: result.init?.status ?? 200, body: result.data, location: null };
  return { status: 200, body: value, location: null };
}

function mailsOf(context: AppLoadContext): Promise<StoredMail[]> {
  return sentMails(context.services);
}

/** Mails to `to`, once the mails queued after the page answered are sent. */
async function mailsTo(context: AppLoadContext, to: string): Promise<StoredMail[]> {
  return (await mailsOf(context)).filter((mail) => mail.to === to);
}

/** Off turns exactly that kind off; on leaves every kind on. */
function mailOff(kind: MailKind, choice: "on" | "off"): MailKind[] {
  return choice === "off" ? [kind] : [];
}

async function app(env: Record<string, string> = {}) {
  const context = testContext({}, { APP_URL: "https://referrals.example", ...env });
  await context.services.store.refresh();
  return context;
}

function unsubscribeUrlIn(mail: StoredMail): string {
  const header = mail.headers?.["List-Unsubscribe"] ?? "";
  return header.replace(/^<|>$/g, "");
}

describe("the settings page", () => {
  it("shows every kind on for a new member and stores what is unticked in mailOff, then says so", async () => {
    const context = await app();
    const member = await insertAgent(context, { fullName: "Ann Archer" });
    const cookie = await sessionCookie(context, member);
    const shown = await answer(await call(settings.loader, get("/settings/notifications", cookie), context));
    expect(shown.body).toMatchObject({ on: [...MAIL_KINDS], notice: null });

    const saving = await call(
      settings.action,
      postMany("/settings/notifications", cookie, { on: ["messages", "responses", "referrals", "reviews", "invitations"] }),
      context,
    );
    expect(await answer(saving)).toMatchObject({ status: 302, location: "/settings/notifications" });
    expect(context.services.store.agents.get(member.id)?.mailOff).toEqual(["digest", "urgent"]);
    // The notice rides in the flash cookie the save set, once: the address says nothing.
    const flash = (saving as Response).headers.get("Set-Cookie")?.split(";")[0];
    const after = await answer(await call(settings.loader, get("/settings/notifications", `${cookie}; ${flash}`), context));
    expect(after.body).toMatchObject({
      on: ["messages", "responses", "referrals", "reviews", "invitations"],
      notice: NOTICES.settingsSaved,
    });
    const reload = await answer(await call(settings.loader, get("/settings/notifications", cookie), context));
    expect(reload.body).toMatchObject({ notice: null });

    // Nothing ticked turns every kind off.
    await call(settings.action, postMany("/settings/notifications", cookie, {}), context);
    expect(context.services.store.agents.get(member.id)?.mailOff).toEqual([...MAIL_KINDS]);
  });

  it("refuses an unknown kind with 400 and stores nothing", async () => {
    const context = await app();
    const member = await insertAgent(context);
    const cookie = await sessionCookie(context, member);
    const refused = await answer(
      await call(settings.action, postMany("/settings/notifications", cookie, { on: ["messages", "spam"] }), context),
    );
    expect(refused.status).toBe(400);
    expect(context.services.store.agents.get(member.id)?.mailOff).toBeUndefined();
  });

  it("does not report saved what the store refused", async () => {
    const context = await app();
    const member = await insertAgent(context);
    const cookie = await sessionCookie(context, member);
    const agents = context.services.store.agents;
    const update = agents.update.bind(agents);
    agents.update = () => Promise.reject(new Error("store down"));
    try {
      const refused = await answer(await call(settings.action, postMany("/settings/notifications", cookie, { on: ["messages"] }), context));
      expect(refused.status).toBe(503);
      expect(JSON.stringify(refused.body)).toContain("could not be saved");
    } finally {
      agents.update = update;
    }
    expect(agents.get(member.id)?.mailOff).toBeUndefined();
  });

  it("reads a mailOff cell as staff type it, and lists a name that still does not read", async () => {
    const context = await app();
    const member = await insertAgent(context);
    const agents = context.services.store.agents;
    await editAgentRow(context, member.id, { mailOff: "messages;urgent" });
    expect(agents.get(member.id)?.mailOff).toEqual(["messages", "urgent"]);
    await editAgentRow(context, member.id, { mailOff: "Messages." });
    expect(agents.get(member.id)?.mailOff).toEqual(["messages"]);
    await editAgentRow(context, member.id, { mailOff: "Digest / urgent\nresponses" });
    expect(agents.get(member.id)?.mailOff).toEqual(["digest", "urgent", "responses"]);
    expect(context.services.store.health().doubtfulValues).toEqual([]);

    await editAgentRow(context, member.id, { mailOff: "digest, weekly" });
    expect(agents.get(member.id)?.mailOff).toEqual(["digest", "weekly"]);
    expect(context.services.store.health().doubtfulValues).toEqual([
      expect.objectContaining({ tab: "Agents", id: member.id, reason: expect.stringContaining('mailOff "weekly" is not a kind of mail') }),
    ]);
  });

  it("counts saves against the member's hourly limit", async () => {
    const context = await app({ SETTINGS_PER_MEMBER_PER_HOUR: "1" });
    const member = await insertAgent(context);
    const cookie = await sessionCookie(context, member);
    expect(
      (await answer(await call(settings.action, postMany("/settings/notifications", cookie, { on: ["messages"] }), context))).status,
    ).toBe(302);
    const second = await answer(await call(settings.action, postMany("/settings/notifications", cookie, { on: [] }), context));
    expect(second.status).toBe(429);
    expect(context.services.store.agents.get(member.id)?.mailOff).toEqual([
      "responses",
      "referrals",
      "reviews",
      "invitations",
      "digest",
      "urgent",
    ]);
  });
});

function postMany(url: string, cookie: string, fields: Record<string, string[]>): Request {
  const body = new URLSearchParams();
  for (const [name, values] of Object.entries(fields)) for (const value of values) body.append(name, value);
  return new Request(`http://localhost${url}`, { method: "POST", headers: { Cookie: cookie }, body });
}

describe("each kind of mail honours the member's choice", () => {
  for (const choice of ["on", "off"] as const) {
    it(`message mails ${choice}: ${choice === "on" ? "sent, with the footer and one-click headers" : "not sent; the message is stored"}`, async () => {
      const context = await app();
      const sender = await insertAgent(context, { fullName: "Ann Archer" });
      const recipient = await insertAgent(context, { fullName: "Bob Brooks", mailOff: mailOff("messages", choice) });
      const sent = await call(
        messages.action,
        post(`/messages?to=${recipient.id}`, await sessionCookie(context, sender), { text: "Hello Bob" }),
        context,
      );
      expect((sent as Response).status).toBe(302);
      expect(context.services.store.messages.all().map((message) => message.text)).toEqual(["Hello Bob"]);
      const mails = await mailsOf(context);
      if (choice === "off") return expect(mails).toHaveLength(0);
      expect(mails).toHaveLength(1);
      expectFooter(mails[0]!, "messages");
    });

    it(`response mails ${choice}: ${choice === "on" ? "sent" : "not sent; the response is stored"}`, async () => {
      const context = await app();
      const poster = await insertAgent(context, { fullName: "Ann Archer", mailOff: mailOff("responses", choice) });
      const responder = await insertAgent(context, { fullName: "Bob Brooks" });
      const request = await insertRequest(context, poster);
      const answered = await call(
        respond.action,
        post(`/referral-requests/${request.id}/respond`, await sessionCookie(context, responder), { message: "I can help" }),
        context,
        { id: request.id },
      );
      expect((answered as Response).status).toBe(302);
      expect(context.services.store.responses.all()).toHaveLength(1);
      const mails = await mailsOf(context);
      if (choice === "off") return expect(mails).toHaveLength(0);
      expect(mails.map((mail) => mail.to)).toEqual([poster.email]);
      expectFooter(mails[0]!, "responses");
    });

    it(`urgent request mails ${choice}: ${choice === "on" ? "sent" : "not sent"}`, async () => {
      const context = await app();
      const poster = await insertAgent(context, { state: "OK" });
      const member = await insertAgent(context, { state: "OK", specialties: ["Residential"], mailOff: mailOff("urgent", choice) });
      const control = await insertAgent(context, { state: "OK", specialties: ["Residential"] });
      await postUrgent(context, poster);
      // The control's mail shows the sending ran, so the other's absence is a decision, not a delay.
      expect(await mailsTo(context, control.email)).toHaveLength(1);
      const mails = await mailsTo(context, member.email);
      if (choice === "off") return expect(mails).toHaveLength(0);
      expect(mails).toHaveLength(1);
      expectFooter(mails[0]!, "urgent");
    });
  }

  it("account mails go to a member who turned every kind off: approval and password reset", async () => {
    const context = await app();
    const pending = await insertAgent(context, { status: "pending", mailOff: [...MAIL_KINDS] });
    await editAgentRow(context, pending.id, { status: "approved" });
    const [approval] = await mailsTo(context, pending.email);
    expect(approval?.subject).toMatch(/approved/);
    expect(approval?.headers).toBeUndefined();

    const member = await insertAgent(context, { mailOff: [...MAIL_KINDS] });
    await call(forgotPassword.action, post("/forgot-password", "", { email: member.email }), context);
    const [reset] = await mailsTo(context, member.email);
    expect(reset?.subject).toMatch(/Reset your/);
    expect(reset?.text).not.toContain("/unsubscribe");
  });
});

async function postUrgent(context: AppLoadContext, poster: Agent, fields: Record<string, string> = {}) {
  const posted = await call(
    postRequest.action,
    post(
      "/post-request",
      await sessionCookie(context, poster),
      requestForm({ state: "OK", specialty: "Residential", urgent: "on", ...fields }),
    ),
    context,
  );
  expect((posted as Response).status).toBe(302);
}

function expectFooter(mail: StoredMail, kind: MailKind) {
  expect(mail.text).toContain("You get this mail because");
  expect(mail.text).toContain("https://referrals.example/settings/notifications");
  expect(mail.html).toContain('href="https://referrals.example/settings/notifications"');
  const url = unsubscribeUrlIn(mail);
  expect(url).toMatch(/^https:\/\/referrals\.example\/unsubscribe\?token=/);
  expect(url).toContain(`.${kind}.`);
  expect(mail.text).toContain(url);
  expect(mail.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
}

describe("urgent request mail", () => {
  it("goes once to approved members in the request's state with its specialty, never the poster or anyone else", async () => {
    const context = await app();
    const poster = await insertAgent(context, { state: "OK", specialties: ["Residential"] });
    const match = await insertAgent(context, { state: "OK", specialties: ["Luxury", "Residential"] });
    const otherState = await insertAgent(context, { state: "TX", specialties: ["Residential"] });
    const otherSpecialty = await insertAgent(context, { state: "OK", specialties: ["Land"] });
    const pending = await insertAgent(context, { state: "OK", specialties: ["Residential"], status: "pending" });
    await postUrgent(context, poster, { title: "Urgent: family moving next week" });
    const [mail] = await mailsTo(context, match.email);
    expect(mail?.subject).toBe("Urgent request in your market: Urgent: family moving next week");
    expect(mail?.text).toMatch(/https:\/\/referrals\.example\/referral-requests\/[\w-]+/);
    expect(mail?.text).toContain("you are a member in Oklahoma working in Residential");
    const everyone = (await mailsOf(context)).map((each) => each.to);
    expect(everyone).toEqual([match.email]);
    for (const left of [poster, otherState, otherSpecialty, pending]) expect(everyone).not.toContain(left.email);
  });

  it("is not sent for a request that is not urgent", async () => {
    const context = await app();
    const poster = await insertAgent(context, { state: "OK" });
    const member = await insertAgent(context, { state: "OK", specialties: ["Residential"] });
    await call(postRequest.action, post("/post-request", await sessionCookie(context, poster), requestForm({ state: "OK" })), context);
    expect(await mailsTo(context, member.email)).toHaveLength(0);
  });

  it("does not hold up the post, and a failed mail is logged while the others go", async () => {
    const context = await app();
    const poster = await insertAgent(context, { state: "OK" });
    const members = await Promise.all([1, 2, 3].map(() => insertAgent(context, { state: "OK", specialties: ["Residential"] })));
    const { config, sendClaims } = context.services;
    const outbox = createOutboxMailer(outboxDirectory(config), config.mailFrom);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const driver = {
      driver: "outbox" as const,
      async send(mail: Mail) {
        await held;
        if (mail.to === members[0]!.email) throw new Error("SendGrid refused");
        return outbox.send(mail);
      },
    };
    context.services.notifier = createNotifier({ driver, claims: sendClaims, config });
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (...args: unknown[]) => errors.push(args[0]);
    try {
      // The post answers while every mail is still held.
      await postUrgent(context, poster);
      expect(context.services.store.requests.all()).toHaveLength(1);
      release();
      expect(await mailsTo(context, members[2]!.email)).toHaveLength(1);
      expect(await mailsTo(context, members[1]!.email)).toHaveLength(1);
      await expect.poll(() => errors.length).toBe(1);
      const [posted] = context.services.store.requests.all();
      expect(String(errors[0])).toContain(`the urgent request ${posted!.id}'s mail to agent ${members[0]!.id} could not be sent`);
    } finally {
      console.error = log;
    }
  });
});

describe("the unsubscribe link", () => {
  async function memberWithLink(kind: MailKind = "messages") {
    const context = await app();
    const member = await insertAgent(context, { fullName: "Ann Archer" });
    const token = createUnsubscribeToken(context.services.config.sessionSecrets, member, kind);
    return { context, member, token };
  }

  const unsubscribeRequest = (token: string, method: "GET" | "POST" = "GET") =>
    new Request(`http://localhost/unsubscribe?token=${encodeURIComponent(token)}`, {
      method,
      body: method === "POST" ? new URLSearchParams({ "List-Unsubscribe": "One-Click" }) : undefined,
    });

  it("opened (GET) only asks, and changes nothing", async () => {
    const { context, member, token } = await memberWithLink();
    const shown = await answer(await call(unsubscribe.loader, unsubscribeRequest(token), context));
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ state: "confirm", label: "New messages", email: member.email, alreadyOff: false });
    expect(context.services.store.agents.get(member.id)?.mailOff).toBeUndefined();
  });

  it("posted without a session (a mail program's one-click) turns that kind off and keeps the others", async () => {
    const { context, member, token } = await memberWithLink("urgent");
    await context.services.store.agents.update(member.id, { mailOff: ["digest"] });
    const done = await answer(await call(unsubscribe.action, unsubscribeRequest(token, "POST"), context));
    expect(done).toMatchObject({ status: 200, body: { state: "done" } });
    expect(context.services.store.agents.get(member.id)?.mailOff).toEqual(["digest", "urgent"]);
    // Again: the same answer, nothing new written.
    expect((await answer(await call(unsubscribe.action, unsubscribeRequest(token, "POST"), context))).body).toMatchObject({
      state: "done",
    });
    expect(context.services.store.agents.get(member.id)?.mailOff).toEqual(["digest", "urgent"]);
  });

  it("refuses a tampered, another member's or an expired link with a clear page, and changes nothing", async () => {
    const { context, member, token } = await memberWithLink();
    const other = await insertAgent(context, { fullName: "Bob Brooks" });
    const [, kind, expiry, signature] = token.split(".");
    const forged = {
      "another member": `${Buffer.from(other.id).toString("base64url")}.${kind}.${expiry}.${signature}`,
      "another kind": `${token.split(".")[0]}.urgent.${expiry}.${signature}`,
      "a later expiry": `${token.split(".")[0]}.${kind}.${Number(expiry) + 1000}.${signature}`,
      "a changed signature": `${token.slice(0, -2)}${token.endsWith("A") ? "B" : "A"}`,
      "no token": "",
    };
    for (const [what, bad] of Object.entries(forged)) {
      for (const handler of [unsubscribe.loader, unsubscribe.action]) {
        const refused = await answer(
          await call(handler, unsubscribeRequest(bad, handler === unsubscribe.action ? "POST" : "GET"), context),
        );
        expect(refused, what).toMatchObject({ status: 400, body: { state: "invalid" } });
      }
    }
    const old = createUnsubscribeToken(
      context.services.config.sessionSecrets,
      member,
      "messages",
      Date.now() - UNSUBSCRIBE_LINK_TTL_SECONDS * 1000 - 1000,
    );
    for (const handler of [unsubscribe.loader, unsubscribe.action]) {
      const refused = await answer(await call(handler, unsubscribeRequest(old, handler === unsubscribe.action ? "POST" : "GET"), context));
      expect(refused).toMatchObject({ status: 410, body: { state: "expired" } });
    }
    expect(context.services.store.agents.get(member.id)?.mailOff).toBeUndefined();
    expect(context.services.store.agents.get(other.id)?.mailOff).toBeUndefined();
  });

  it("from a message mail, posted, stops the next message mail", async () => {
    const context = await app();
    const sender = await insertAgent(context, { fullName: "Ann Archer" });
    const recipient = await insertAgent(context, { fullName: "Bob Brooks" });
    const cookie = await sessionCookie(context, sender);
    await call(messages.action, post(`/messages?to=${recipient.id}`, cookie, { text: "First" }), context);
    const [mail] = await mailsOf(context);
    const url = new URL(unsubscribeUrlIn(mail!));
    await call(unsubscribe.action, new Request(`http://localhost${url.pathname}${url.search}`, { method: "POST" }), context);
    expect(context.services.store.agents.get(recipient.id)?.mailOff).toEqual(["messages"]);
    // A new conversation, so the 10-minute throttle is not what holds the mail back.
    const third = await insertAgent(context, { fullName: "Cat Cole" });
    await call(messages.action, post(`/messages?to=${recipient.id}`, await sessionCookie(context, third), { text: "Second" }), context);
    expect(await mailsOf(context)).toHaveLength(1);
  });
});

describe("through SendGrid", () => {
  let sendgrid: FakeSendgrid;
  beforeAll(async () => {
    sendgrid = await startFakeSendgrid("SG.test-key");
  });
  afterAll(() => sendgrid.close());

  it("a message mail carries List-Unsubscribe and List-Unsubscribe-Post in the body's headers field", async () => {
    const context = await app({ SENDGRID_API_KEY: "SG.test-key", SENDGRID_API_URL: sendgrid.url });
    const sender = await insertAgent(context, { fullName: "Ann Archer" });
    const recipient = await insertAgent(context, { fullName: "Bob Brooks" });
    await call(messages.action, post(`/messages?to=${recipient.id}`, await sessionCookie(context, sender), { text: "Hi" }), context);
    await context.services.notifier.idle();
    const mail = sendgrid.mails.find((each) => each.to.includes(recipient.email));
    expect(mail?.headers?.["List-Unsubscribe"]).toMatch(/^<https:\/\/referrals\.example\/unsubscribe\?token=[^>]+>$/);
    expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });
});
