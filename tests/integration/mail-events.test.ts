/**
 * SendGrid's signed Event Webhook, POST /mail/events (docs/decisions/0084): signed with a key
 * pair made by the stand-in as SendGrid signs, so the app's real verification runs. Hard
 * bounces, drops of bounced or complaining addresses and spam reports list the address once;
 * a forged, unsigned or old post stores nothing; off (404) without the key.
 */
import { createPublicKey } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as route from "../../app/routes/mail.events";
import { isSignedBy, MAIL_EVENTS_MAX_BYTES } from "../../app/server/mail/mail-events.server";
import { StoreWriteError } from "../../app/server/store/store.server";
import { eventWebhookSigner, sendgridEvent, type SignedEventPost } from "../mocks/sendgrid-events";
import { testContext } from "../support/services";

const sendgrid = eventWebhookSigner();
const opened: AppLoadContext[] = [];

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((context) => context.services.store.stop()));
});

async function context(env: Record<string, string> = { SENDGRID_EVENT_PUBLIC_KEY: sendgrid.publicKeyBase64 }): Promise<AppLoadContext> {
  const made = testContext({}, env);
  opened.push(made);
  await made.services.store.refresh();
  return made;
}

async function deliver(context: AppLoadContext, { body, headers }: SignedEventPost) {
  const request = new Request("http://localhost/mail/events", { method: "POST", headers, body });
  try {
    return (await route.action({ request, context, params: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const listed = async (context: AppLoadContext) =>
  (await context.services.store.suppressions.readStored()).map((row) => [row.email, row.reason, row.note]);

describe("a batch SendGrid signed", () => {
  it("lists hard bounces, drops of bounced or reported addresses and spam reports, and nothing else", async () => {
    const ctx = await context();
    const events = [
      sendgridEvent("delivered@example.com", "delivered"),
      sendgridEvent("Hard@Example.com", "bounce", {
        type: "bounce",
        status: "5.1.1",
        reason: "550 5.1.1 no such user",
        sg_event_id: "ev-1",
      }),
      sendgridEvent("blocked@example.com", "bounce", { type: "blocked", reason: "550 blocked by policy" }),
      sendgridEvent("dropped@example.com", "dropped", { reason: "Bounced Address", sg_event_id: "ev-2" }),
      sendgridEvent("reported@example.com", "dropped", { reason: "Spam Reporting Address", sg_event_id: "ev-3" }),
      sendgridEvent("unsubscribed@example.com", "dropped", { reason: "Unsubscribed Address" }),
      sendgridEvent("spam@example.com", "spamreport", { sg_event_id: "ev-4" }),
      sendgridEvent("opened@example.com", "open"),
      sendgridEvent("deferred@example.com", "deferred"),
      { event: "bounce", type: "bounce" },
      "not an event",
    ];
    const answer = await deliver(ctx, sendgrid.post(events as never));
    expect(answer.status).toBe(200);
    expect(await listed(ctx)).toEqual([
      ["hard@example.com", "bounce", "SendGrid event: bounce, ev-1"],
      ["dropped@example.com", "bounce", "SendGrid event: dropped (Bounced Address), ev-2"],
      ["reported@example.com", "complaint", "SendGrid event: dropped (Spam Reporting Address), ev-3"],
      ["spam@example.com", "complaint", "SendGrid event: spamreport, ev-4"],
    ]);
  });

  it("stores one row per address when the same batch comes twice, or an address twice in one batch", async () => {
    const ctx = await context();
    const post = sendgrid.post([sendgridEvent("dana@example.com", "bounce"), sendgridEvent("DANA@example.com", "spamreport")]);
    expect((await deliver(ctx, post)).status).toBe(200);
    const again = await deliver(ctx, post);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe("Stored: 0 added to the suppression list, 1 listed already.");
    expect((await listed(ctx)).map(([email, reason]) => [email, reason])).toEqual([["dana@example.com", "bounce"]]);
  });

  it("is answered 503 when the store refuses the rows, so SendGrid posts it again, and the next post stores them", async () => {
    const ctx = await context();
    const insert = vi
      .spyOn(ctx.services.store.suppressions, "insertOnce")
      .mockRejectedValue(new StoreWriteError("Suppressions", { cause: new Error("quota exceeded") }));
    const post = sendgrid.post([sendgridEvent("dana@example.com", "bounce")]);
    expect((await deliver(ctx, post)).status).toBe(503);
    insert.mockRestore();
    expect((await deliver(ctx, post)).status).toBe(200);
    expect((await listed(ctx)).map(([email]) => email)).toEqual(["dana@example.com"]);
  });
});

describe("a post that is not SendGrid's", () => {
  const bounce = () => [sendgridEvent("dana@example.com", "bounce")];

  it("is refused with 403, nothing stored, when signed with another key", async () => {
    const ctx = await context();
    const impostor = eventWebhookSigner();
    expect((await deliver(ctx, impostor.post(bounce()))).status).toBe(403);
    expect(await listed(ctx)).toEqual([]);
  });

  it("is refused with 403 when the body or the timestamp was changed after signing, or a header is missing", async () => {
    const ctx = await context();
    const genuine = sendgrid.post(bounce());
    const changedBody = { ...genuine, body: genuine.body.replace("dana@", "eve@") };
    // The same events re-serialised (no trailing CRLF): the signature is over the bytes as sent.
    const reserialised = { ...genuine, body: JSON.stringify(JSON.parse(genuine.body)) };
    const timestamp = Number(genuine.headers["X-Twilio-Email-Event-Webhook-Timestamp"]);
    const changedTime = { ...genuine, headers: { ...genuine.headers, "X-Twilio-Email-Event-Webhook-Timestamp": String(timestamp + 1) } };
    const { "X-Twilio-Email-Event-Webhook-Signature": _signature, ...unsigned } = genuine.headers;
    const { "X-Twilio-Email-Event-Webhook-Timestamp": _timestamp, ...untimed } = genuine.headers;
    const garbled = { ...genuine, headers: { ...genuine.headers, "X-Twilio-Email-Event-Webhook-Signature": "bm90IGEgc2lnbmF0dXJl" } };
    const posts = [changedBody, reserialised, changedTime, garbled, { ...genuine, headers: unsigned }, { ...genuine, headers: untimed }];
    for (const post of posts) expect((await deliver(ctx, post)).status).toBe(403);
    expect(await listed(ctx)).toEqual([]);
  });

  it("is refused with 403 when signed long ago (or ahead): a recorded post sent again later", async () => {
    const ctx = await context();
    const now = Date.now();
    for (const at of [now - 11 * 60_000, now + 11 * 60_000]) {
      expect((await deliver(ctx, sendgrid.post(bounce(), new Date(at)))).status).toBe(403);
    }
    expect(await listed(ctx)).toEqual([]);
    expect((await deliver(ctx, sendgrid.post(bounce(), new Date(now - 4 * 60_000)))).status).toBe(200);
  });

  it("is refused with 413 when larger than any batch, and 400 when signed but no array of events", async () => {
    const ctx = await context();
    const padding = "x".repeat(MAIL_EVENTS_MAX_BYTES);
    expect((await deliver(ctx, sendgrid.post([sendgridEvent("dana@example.com", "bounce", { padding })]))).status).toBe(413);
    const object = JSON.stringify(sendgridEvent("dana@example.com", "bounce"));
    const timestamp = String(Math.floor(Date.now() / 1000));
    expect((await deliver(ctx, { body: object, headers: sendgrid.signedHeaders(object, timestamp) })).status).toBe(400);
    expect(await listed(ctx)).toEqual([]);
  });
});

describe("without SENDGRID_EVENT_PUBLIC_KEY", () => {
  it("is not there: 404, nothing stored", async () => {
    const ctx = await context({});
    expect((await deliver(ctx, sendgrid.post([sendgridEvent("dana@example.com", "bounce")]))).status).toBe(404);
    expect(await listed(ctx)).toEqual([]);
  });
});

describe("the signature check", () => {
  // SendGrid's own example, from the tests of its client libraries: key, payload, timestamp and signature.
  const key = createPublicKey({
    key: Buffer.from(
      "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==",
      "base64",
    ),
    format: "der",
    type: "spki",
  });
  const body = Buffer.from('{"category":"example_payload","event":"test_event","message_id":"message_id"}');
  const signature = "MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=";

  it("accepts SendGrid's published example and refuses it with one character changed", () => {
    expect(isSignedBy(key, { timestamp: "1588788367", body, signature })).toBe(true);
    expect(isSignedBy(key, { timestamp: "1588788368", body, signature })).toBe(false);
    expect(isSignedBy(key, { timestamp: "1588788367", body: Buffer.from("payload"), signature })).toBe(false);
    expect(isSignedBy(key, { timestamp: "1588788367", body, signature: signature.replace("H2j", "H3j") })).toBe(false);
  });
});
