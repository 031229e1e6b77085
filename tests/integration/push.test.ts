/**
 * Web Push through the one notifier, against the push service stand-in (tests/mocks/push-service.ts):
 * the payload decrypted with the subscription's keys, the TTL and Urgency headers, the VAPID
 * JWT's audience and expiry, 404/410 removing the device, 429/5xx tried again, throttles and
 * send-once across two notifiers, the member's choices, blocks and suspensions, and the mail
 * held back after a push until the item is still unread.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import type { PushNotice } from "../../app/domain/push-notice";
import { pushSubscriptionSchema } from "../../app/domain/push-subscription";
import type { Agent } from "../../app/domain/workbook/tabs";
import { action as messagesAction } from "../../app/routes/messages";
import { action as settingsAction, loader as settingsLoader } from "../../app/routes/settings.notifications";
import { startMemberSession } from "../../app/server/auth/session.server";
import { readOutbox } from "../../app/server/mail/mailer.server";
import { sendMessage } from "../../app/server/messages/send.server";
import { declineInvitation, inviteAgents } from "../../app/server/invitations/invitations.server";
import { remindInvitedAgents } from "../../app/server/jobs/invitation-reminders.server";
import { tellOtherParty } from "../../app/server/referrals/referral-notify.server";
import { createNotifier } from "../../app/server/notifier/notifier.server";
import { createPush } from "../../app/server/push/push.server";
import { createSendClaims } from "../../app/server/send-claims.server";
import { createServices, outboxDirectory, stopServices } from "../../app/server/service-lifecycle.server";
import type { Services } from "../../app/server/services.server";
import { newId } from "../../app/server/store/store.server";
import { loadConfig } from "../../app/server/config.server";
import { useFakeSheets } from "../support/fake-sheets";
import { usePostgres } from "../support/postgres";
import { startPushService, type PushServiceStandIn } from "../mocks/push-service";
import { agentRecord, referralRecord } from "../support/records";
import { insertRequest } from "./requests-support";
import { sentMails, testContext } from "../support/services";

const { fake } = useFakeSheets();
const postgres = usePostgres();
let pushService: PushServiceStandIn;
beforeAll(async () => {
  pushService = await startPushService();
});
afterAll(() => pushService.close());

const opened: AppLoadContext[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  // The notifier first: a mail still held back goes (or is recorded) before the store closes.
  await Promise.all(opened.splice(0).map(async ({ services }) => (await services.notifier.stop(), await services.store.stop())));
});

const ann = agentRecord({ id: "rec-ann", fullName: "Ann Archer", email: "ann@example.com", city: "Austin", state: "TX" });
const bob = agentRecord({
  id: "rec-bob",
  fullName: "Bob Brooks",
  email: "bob@example.com",
  pushOn: ["messages", "invitations", "referrals"],
});
const annBob = conversationIdFor(ann.id, bob.id);

/** Mails held back after a push wait this long here instead of 15 minutes. */
const WAIT_MS = 300;

async function network(env: Record<string, string> = {}, agents: readonly Agent[] = [ann, bob]): Promise<AppLoadContext> {
  const context = testContext({}, { PUSH_MAIL_WAIT_MS: String(WAIT_MS), ...env });
  opened.push(context);
  await context.services.store.refresh();
  for (const agent of agents) await context.services.store.agents.insert(agent);
  return context;
}

/** A device of `agent` subscribed at the stand-in; its endpoint. */
async function subscribeDevice(context: AppLoadContext, agent: Agent, deviceName = "Chrome on Android"): Promise<string> {
  const { endpoint, keys } = pushService.subscribe();
  await context.services.push.subscribe(agent, { endpoint, ...keys, deviceName }, new Date());
  return endpoint;
}

function receivedAt(endpoint: string) {
  const id = new URL(endpoint).pathname.split("/").pop();
  return pushService.received.filter((push) => push.subscriptionId === id);
}

function send(context: AppLoadContext, text: string, from: Agent = ann, to: Agent = bob) {
  return sendMessage(context.services, {
    sender: from,
    recipient: to,
    conversationId: conversationIdFor(from.id, to.id),
    text,
    request: new Request("http://localhost/messages"),
  });
}

describe("a message as a push", () => {
  it("lands encrypted for the device, with the notice, TTL, high urgency and a VAPID JWT for the push service's origin", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    const before = Date.now() / 1000;
    const sent = await send(context, "Hello Bob, about the ranch listing near Tyler");
    expect(await sent.notification).toBe("pushed");

    const [push] = receivedAt(endpoint);
    expect(pushService.invalid).toEqual([]);
    expect(push!.payload).toEqual({
      title: "New message from Ann Archer",
      body: "Hello Bob, about the ranch listing near Tyler",
      url: `/messages?conversation=${encodeURIComponent(annBob)}`,
      tag: `message:${annBob}`,
    } satisfies PushNotice);
    expect(push!.urgency).toBe("high");
    expect(push!.ttl).toBe(24 * 60 * 60);
    expect(push!.jwt.aud).toBe(pushService.url);
    expect(push!.jwt.exp).toBeGreaterThan(before);
    expect(push!.jwt.exp).toBeLessThanOrEqual(before + 24 * 60 * 60 + 1);
    expect(push!.jwt.sub).toBe(`mailto:${context.services.config.supportEmail}`);
    expect(context.services.store.pushSubscriptions.all()[0]!.lastSuccessAt).toBeDefined();
  });

  it("carries at most the mail's 100-character preview of the message, and no e-mail address", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    const text = `${"The buyers are relocating from Denver and want acreage. ".repeat(6)}Call me at ann@example.com`;
    await (
      await send(context, text)
    ).notification;
    const [push] = receivedAt(endpoint);
    const { body } = push!.payload as PushNotice;
    expect(Array.from(body.replace(/…$/, ""))).toHaveLength(100);
    expect(text.startsWith(body.replace(/…$/, ""))).toBe(true);
    expect(push!.text).not.toContain("ann@example.com");
    expect(push!.text).not.toContain("bob@example.com");
  });

  it("holds the mail back, and sends it after the wait while the conversation is still unread", async () => {
    const context = await network();
    await subscribeDevice(context, bob);
    await (
      await send(context, "Are you free Tuesday?")
    ).notification;
    // The push landed: no mail yet.
    expect(await mailsNow(context)).toEqual([]);
    const mails = await sentMails(context.services);
    expect(mails.map((mail) => mail.subject)).toEqual(["New message from Ann Archer on Red River Referrals"]);
  });

  it("sends no mail when the member read the conversation before the wait ended", async () => {
    const context = await network();
    await subscribeDevice(context, bob);
    const { message, notification } = await send(context, "Are you free Tuesday?");
    expect(await notification).toBe("pushed");
    await context.services.messageQueries.markRead(annBob, bob.email, message.createdAt);
    expect(await sentMails(context.services)).toEqual([]);
  });

  it("sends the held mail at a stop if the conversation is still unread, rather than losing it", async () => {
    const context = await network({ PUSH_MAIL_WAIT_MS: String(15 * 60_000) });
    await subscribeDevice(context, bob);
    await (
      await send(context, "Are you free Tuesday?")
    ).notification;
    const started = Date.now();
    await context.services.notifier.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await mailsNow(context)).map((mail) => mail.to)).toEqual([bob.email]);
  });

  it("mails at once, with no push, when the member has push off for messages", async () => {
    const pushOff = { ...bob, pushOn: ["invitations"] };
    const context = await network({}, [ann, pushOff]);
    const endpoint = await subscribeDevice(context, bob);
    expect(await (await send(context, "Hello", ann, pushOff)).notification).toBe("sent");
    expect(receivedAt(endpoint)).toEqual([]);
    expect(await mailsNow(context)).toHaveLength(1);
  });

  it("pushes without mailing a member who turned message mails off but push on", async () => {
    const mailOff = { ...bob, mailOff: ["messages"] };
    const context = await network({}, [ann, mailOff]);
    const endpoint = await subscribeDevice(context, bob);
    expect(await (await send(context, "Hello", ann, mailOff)).notification).toBe("pushed");
    expect(receivedAt(endpoint)).toHaveLength(1);
    expect(await sentMails(context.services)).toEqual([]);
  });

  it("follows the conversation's throttle: the second message within 10 minutes is neither pushed nor mailed", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    expect(await (await send(context, "First")).notification).toBe("pushed");
    expect(await (await send(context, "Second")).notification).toBe("throttled");
    expect(receivedAt(endpoint)).toHaveLength(1);
  });

  it("goes once across two instances' notifiers on one workbook, throttle and claim shared", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    const { services } = context;
    // A second instance: its own claims and notifier over the same store.
    const otherClaims = createSendClaims({ store: services.store, uniqueKey: false });
    const otherPush = createPush({ store: services.store, writeQueues: services.writeQueues, config: services.config });
    const other = createNotifier({
      driver: { driver: "outbox", send: async () => undefined },
      claims: otherClaims,
      config: services.config,
      push: otherPush,
    });
    const [first, second] = await Promise.all([
      send(context, "From instance one"),
      sendMessage(
        { ...services, notifier: other },
        { sender: ann, recipient: bob, conversationId: annBob, text: "From instance two", request: new Request("http://localhost/") },
      ),
    ]);
    const outcomes = [await first.notification, await second.notification].sort();
    expect(outcomes).toEqual(["pushed", "throttled"]);
    expect(receivedAt(endpoint)).toHaveLength(1);
  });

  it("is not sent to a member who blocked the sender, nor to a suspended member", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    await context.services.store.blocks.insert({
      id: "block-1",
      blockerEmail: bob.email,
      blockedEmail: ann.email,
      status: "active",
      createdAt: new Date().toISOString(),
      updatedAt: undefined,
    });
    expect(await postMessage(context, ann, bob)).toBe(403);

    const suspended = await network({}, [ann, { ...bob, status: "suspended" }]);
    const second = await subscribeDevice(suspended, bob);
    expect(await postMessage(suspended, ann, bob)).toBe(404);
    for (const each of [context, suspended]) await each.services.notifier.idle();
    expect([...receivedAt(endpoint), ...receivedAt(second)]).toEqual([]);
  });
});

describe("the push service's answers", () => {
  it("removes a device whose push service answers 404 or 410, and mails at once", async () => {
    for (const status of [404, 410] as const) {
      const context = await network();
      const endpoint = await subscribeDevice(context, bob);
      pushService.answer(endpoint, { status, times: 1 });
      expect(await (await send(context, "Hello")).notification).toBe("sent");
      expect(context.services.push.devices(bob)).toEqual([]);
      expect(context.services.store.pushSubscriptions.all()[0]!.status).toBe("removed");
      expect(await mailsNow(context)).toHaveLength(1);
    }
  });

  it("tries again after 429, waiting the Retry-After it gave, and after 500", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    pushService.answer(endpoint, { status: 429, retryAfter: "1", times: 1 });
    await (
      await send(context, "Hello")
    ).notification;
    const [refusal] = pushService.refused.filter((each) => endpoint.endsWith(each.subscriptionId));
    const [landed] = receivedAt(endpoint);
    expect(refusal!.status).toBe(429);
    expect(landed!.receivedAt - refusal!.at).toBeGreaterThanOrEqual(950);

    const other = await network();
    const second = await subscribeDevice(other, bob);
    pushService.answer(second, { status: 500, times: 2 });
    expect(await (await send(other, "Hello")).notification).toBe("pushed");
    expect(receivedAt(second)).toHaveLength(1);
  });

  it("gives a push up after the last try and mails at once", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    pushService.answer(endpoint, { status: 503, times: 10 });
    expect(await (await send(context, "Hello")).notification).toBe("sent");
    expect(context.services.push.devices(bob)).toHaveLength(1);
  });
});

describe("devices", () => {
  it("keeps one row per endpoint: subscribing it again updates, and for another member moves it", async () => {
    const context = await network();
    const { endpoint, keys } = pushService.subscribe();
    const { push, store } = context.services;
    await push.subscribe(bob, { endpoint, ...keys, deviceName: "Chrome on Android" }, new Date());
    await push.subscribe(bob, { endpoint, ...keys, deviceName: "Chrome on Android 2" }, new Date());
    expect(store.pushSubscriptions.all()).toHaveLength(1);
    expect(push.devices(bob).map((device) => device.deviceName)).toEqual(["Chrome on Android 2"]);
    await push.subscribe(ann, { endpoint, ...keys, deviceName: "Chrome on Android" }, new Date());
    expect(store.pushSubscriptions.all()).toHaveLength(1);
    expect(push.devices(bob)).toEqual([]);
    expect(push.devices(ann)).toHaveLength(1);
  });

  it("lets a member remove only their own device", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    const { push } = context.services;
    const [device] = push.devices(bob);
    expect(await push.remove(ann, device!.id, new Date())).toBe(false);
    expect(push.devices(bob)).toHaveLength(1);
    expect(await push.remove(bob, device!.id, new Date())).toBe(true);
    expect(push.devices(bob)).toEqual([]);
    await send(context, "Hello");
    expect(receivedAt(endpoint)).toEqual([]);
  });

  it("writes a device's last success at most once an hour", async () => {
    const context = await network();
    await subscribeDevice(context, bob);
    const update = vi.spyOn(context.services.store.pushSubscriptions, "update");
    await (
      await send(context, "One")
    ).notification;
    await (
      await send(context, "Two", { ...ann, id: "rec-ann2", email: "ann2@example.com" }, bob)
    ).notification;
    expect(update.mock.calls.filter(([, patch]) => "lastSuccessAt" in patch)).toHaveLength(1);
  });
});

/** The outbox as it is now, without waiting for held mails. */
function mailsNow(context: AppLoadContext) {
  return readOutbox(outboxDirectory(context.services.config));
}

/** Sends through the messages page's action: its status. */
async function postMessage(context: AppLoadContext, from: Agent, to: Agent): Promise<number> {
  const request = new Request(`http://localhost/messages?to=${to.id}`, {
    method: "POST",
    headers: { Cookie: await cookieOf(context, from) },
    body: new URLSearchParams({ intent: "send", text: "Hi" }),
  });
  const reply = await messagesAction({ request, context, params: {} }).catch((thrown: unknown) => thrown);
  return statusOf(reply);
}

async function cookieOf(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

function statusOf(reply: unknown): number {
  if (reply instanceof Response) return reply.status;
  return (reply as { init: ResponseInit | null }).init?.status ?? 200;
}

describe("the settings page's devices and push column", () => {
  type Reply = { status: number; location: string | null; body: unknown };
  async function reply(value: unknown): Promise<Reply> {
    if (value instanceof Response) return { status: value.status, location: value.headers.get("Location"), body: null };
    const result = value as { data: unknown; init: ResponseInit | null };
    return { status: result.init?.status ?? 200, location: null, body: result.data };
  }
  async function postSettings(context: AppLoadContext, agent: Agent, fields: Record<string, string | string[]>): Promise<Reply> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const each of [value].flat()) body.append(name, each);
    const request = new Request("http://localhost/settings/notifications", {
      method: "POST",
      headers: { Cookie: await cookieOf(context, agent) },
      body,
    });
    return reply(await settingsAction({ request, context, params: {} }).catch((thrown: unknown) => thrown));
  }
  async function settingsPage(context: AppLoadContext, agent: Agent) {
    const request = new Request("http://localhost/settings/notifications", { headers: { Cookie: await cookieOf(context, agent) } });
    return (await settingsLoader({ request, context, params: {} })).data;
  }
  const fresh = { ...ann, pushOn: undefined };

  it("stores a browser's subscription, turns push on for every kind with push the first time, and lists the device", async () => {
    const context = await network({}, [fresh, bob]);
    const { endpoint, keys } = pushService.subscribe();
    const saved = await postSettings(context, fresh, { intent: "subscribe", endpoint, ...keys, deviceName: "Chrome on Android" });
    expect(saved).toMatchObject({ status: 302, location: "/settings/notifications" });
    expect(context.services.store.agents.get(fresh.id)!.pushOn).toEqual(["messages", "referrals", "reviews", "invitations"]);
    const page = await settingsPage(context, context.services.store.agents.get(fresh.id)!);
    expect(page).toMatchObject({
      pushOn: ["messages", "referrals", "reviews", "invitations"],
      publicKey: context.services.push.publicKey,
    });
    expect(page.devices).toMatchObject([{ name: "Chrome on Android", lastNotified: null }]);
  });

  it("refuses a bad subscription with 400 and its message, storing nothing", async () => {
    const context = await network({}, [fresh, bob]);
    const { endpoint, keys } = pushService.subscribe();
    for (const fields of [
      { endpoint: "javascript:alert(1)", ...keys },
      { endpoint: "http://203.0.113.9/push/1", ...keys },
      { endpoint, p256dh: keys.p256dh.slice(1), auth: keys.auth },
      { endpoint, p256dh: keys.p256dh, auth: `${keys.auth}AAAA` },
    ]) {
      const refused = await postSettings(context, fresh, { intent: "subscribe", deviceName: "Chrome on Android", ...fields });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toMatch(/This browser gave (a push address|push keys) the site cannot use/);
    }
    expect(context.services.store.pushSubscriptions.all()).toEqual([]);
    expect(context.services.store.agents.get(fresh.id)!.pushOn).toBeUndefined();
  });

  it("refuses the loopback stand-in's http endpoints in production", async () => {
    const { endpoint, keys } = pushService.subscribe();
    const fields = { intent: "subscribe", endpoint, ...keys };
    expect(pushSubscriptionSchema({ production: true }).safeParse(fields).success).toBe(false);
    expect(pushSubscriptionSchema({ production: false }).safeParse(fields).success).toBe(true);
  });

  it("removes only the member's own device through the Remove button", async () => {
    const context = await network();
    await subscribeDevice(context, bob);
    const [device] = context.services.push.devices(bob);
    expect((await postSettings(context, ann, { intent: "remove-device", deviceId: device!.id })).status).toBe(404);
    expect(context.services.push.devices(bob)).toHaveLength(1);
    expect(await postSettings(context, bob, { intent: "remove-device", deviceId: device!.id })).toMatchObject({
      status: 302,
      location: "/settings/notifications",
    });
    expect(context.services.push.devices(bob)).toEqual([]);
  });

  it("keeps the push choices when the form comes without its push column (JavaScript off), and saves them when it has it", async () => {
    const context = await network();
    await postSettings(context, bob, { on: ["messages"] });
    expect(context.services.store.agents.get(bob.id)!.pushOn).toEqual(bob.pushOn);
    await postSettings(context, context.services.store.agents.get(bob.id)!, { on: ["messages"], pushShown: "1", push: ["invitations"] });
    expect(context.services.store.agents.get(bob.id)!.pushOn).toEqual(["invitations"]);
    const refused = await postSettings(context, bob, { on: ["messages"], pushShown: "1", push: ["digest"] });
    expect(refused.status).toBe(400);
  });

  it("says push is off, and stores no device, when VAPID keys are missing in production", async () => {
    const context = await network({
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      APP_URL: "https://referrals.example",
      VAPID_PUBLIC_KEY: pushService.subscribe().keys.p256dh,
    });
    expect(context.services.push.publicKey).toBeUndefined();
    expect(context.services.push.offBecause).toBe("VAPID_PRIVATE_KEY, VAPID_SUBJECT not set");
    const page = await settingsPage(context, bob);
    expect(page.publicKey).toBeNull();
  });
});

describe("the other kinds as a push", () => {
  const HOUR = 60 * 60_000;

  it("an invitation: the request and its Respond by, high urgency; answered Not a fit before the wait, no mail", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    const request = await insertRequest(context, ann, {
      title: "Relocating family needs an OKC agent",
      respondBy: new Date(Date.now() + 24 * HOUR).toISOString(),
    });
    const invited = await inviteAgents(context.services, { request, poster: ann, agentEmails: [bob.email], now: new Date() });
    expect(invited).toMatchObject({ ok: true, count: 1 });
    await vi.waitFor(() => expect(receivedAt(endpoint)).toHaveLength(1));
    const [push] = receivedAt(endpoint);
    expect(push!.payload).toMatchObject({
      title: "Ann Archer invites you to respond",
      url: `/referral-requests/${request.id}`,
      tag: `invitation:${request.id}`,
    });
    expect((push!.payload as PushNotice).body).toMatch(
      /^Relocating family needs an OKC agent · Respond by \w{3} \d+, \d+:\d\d [AP]M C[SD]T$/,
    );
    expect(push!.urgency).toBe("high");
    await declineInvitation(context.services, { requestId: request.id, agent: bob, reason: undefined, now: new Date() });
    expect(await sentMails(context.services)).toEqual([]);
  });

  it("the Respond by deadline 2 hours away, unanswered: pushed, and mailed after the wait while still unanswered", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    const start = new Date();
    const request = await insertRequest(context, ann, {
      title: "Ranch buyers near Tyler",
      createdAt: start.toISOString(),
      respondBy: new Date(start.getTime() + 24 * HOUR).toISOString(),
    });
    await context.services.store.invitations.insert({
      id: `${request.id}-${bob.id}`,
      requestId: request.id,
      posterEmail: ann.email,
      agentEmail: bob.email,
      status: "invited",
      reason: "",
      createdAt: start.toISOString(),
      answeredAt: undefined,
      remindedAt: undefined,
    });
    const { store, notifier, config, sendClaims } = context.services;
    expect(await remindInvitedAgents({ store, notifier, config, claims: sendClaims }, new Date(start.getTime() + 22 * HOUR))).toBe(1);
    await vi.waitFor(() => expect(receivedAt(endpoint)).toHaveLength(1));
    const [push] = receivedAt(endpoint);
    expect(push!.payload).toMatchObject({ url: `/referral-requests/${request.id}`, tag: `invitation:${request.id}` });
    expect((push!.payload as PushNotice).title).toMatch(/^Respond by /);
    expect((push!.payload as PushNotice).body).toBe("You have not answered yet: Ranch buyers near Tyler");
    expect(push!.urgency).toBe("high");
    expect(await mailsNow(context)).toEqual([]);
    expect((await sentMails(context.services)).map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Reminder: respond by/)]);
  });

  it("a proposal waiting for your signature: normal urgency, no client name; the mail goes only while unsigned", async () => {
    const context = await network();
    const endpoint = await subscribeDevice(context, bob);
    const stored = await context.services.store.referrals.insert(
      referralRecord(ann, bob, { id: "ref-1", clientName: "Kevin Client", status: "proposed", agreementHash: "a".repeat(64) }),
    );
    tellOtherParty(
      { ...context.services },
      stored,
      ann,
      { headline: "Ann Archer proposed a referral agreement" },
      {
        link: "http://localhost/referrals/ref-1",
        now: new Date(),
        change: "proposed",
      },
    );
    await vi.waitFor(() => expect(receivedAt(endpoint)).toHaveLength(1));
    const [push] = receivedAt(endpoint);
    expect(push!.payload).toEqual({
      title: "Waiting for your signature",
      body: "Ann Archer proposed a referral agreement",
      url: "/referrals/ref-1",
      tag: "referral:ref-1",
    });
    expect(push!.urgency).toBe("normal");
    expect(push!.text).not.toContain("Kevin");
    expect((await sentMails(context.services)).map((mail) => mail.to)).toEqual([bob.email]);
  });
});

describe("a push about a page (the broker's sign-off)", () => {
  const notice = {
    title: "Your broker signed off",
    body: "Red River Realty approved your referral agreement.",
    url: "/referrals/ref-9",
    tag: "referral:ref-9",
  };
  const mail = { to: bob.email, subject: "Broker approved", text: "Approved", html: "<p>Approved</p>" };

  it("holds its mail until the wait ends, and drops it once the member opened the page", async () => {
    for (const opened of [false, true]) {
      const context = await network();
      await subscribeDevice(context, bob);
      const { notifier } = context.services;
      const { outcome } = notifier.enqueue(
        {
          mail,
          about: "the broker approval mail",
          member: { recipient: bob, kind: "referrals", reason: "you are a party" },
          push: { notice, urgency: "normal" },
        },
        { once: `broker-approved:test:${opened}` },
      );
      expect(await outcome).toBe("pushed");
      if (opened) notifier.visited(bob, "/referrals/ref-9");
      expect((await sentMails(context.services)).map((each) => each.subject)).toEqual(opened ? [] : ["Broker approved"]);
    }
  });
});

describe.each(["sqlite", "sheets", "postgres"] as const)("two instances on %s", { timeout: 60_000 }, (driver) => {
  const running: Services[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((services) => stopServices(services)));
  });

  async function twoInstances() {
    const dataDir = mkdtempSync(path.join(tmpdir(), "push-across-"));
    const spreadsheetId = `push-${newId()}`;
    if (driver !== "sqlite") fake.spreadsheet(spreadsheetId);
    const sheets =
      driver === "sqlite" ? {} : { GOOGLE_SHEETS_ID: spreadsheetId, GOOGLE_SHEETS_API_URL: fake.url, SHEETS_WRITE_CALLS_PER_MINUTE: "300" };
    const database = driver === "postgres" ? { DATABASE_URL: await postgres.server().createDatabase() } : {};
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, PUSH_MAIL_WAIT_MS: String(WAIT_MS), ...sheets, ...database });
    const all = [createServices(config), createServices(config)] as const;
    running.push(...all);
    await all[0].store.refresh();
    await all[0].store.agents.insert(ann);
    await all[0].store.agents.insert(bob);
    await all[1].store.refresh();
    return all;
  }

  it("a message sent on each at the same moment is pushed once, and one endpoint subscribed on both is one row", async () => {
    const [one, two] = await twoInstances();
    const { endpoint, keys } = pushService.subscribe();
    await Promise.all(
      [one, two].map((services) => services.push.subscribe(bob, { endpoint, ...keys, deviceName: "Chrome on Android" }, new Date())),
    );
    await Promise.all([one, two].map((services) => services.store.refresh()));
    expect(one.store.pushSubscriptions.all()).toHaveLength(1);
    expect(two.push.devices(bob)).toHaveLength(1);
    const request = new Request("http://localhost/messages");
    const sent = await Promise.all(
      [one, two].map((services, i) =>
        sendMessage(services, { sender: ann, recipient: bob, conversationId: annBob, text: `Hello ${i}`, request }),
      ),
    );
    const outcomes = (await Promise.all(sent.map((each) => each.notification))).sort();
    expect(outcomes).toEqual(["pushed", "throttled"]);
    expect(receivedAt(endpoint)).toHaveLength(1);
  });
});
