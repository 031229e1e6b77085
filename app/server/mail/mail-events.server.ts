import { verify, type KeyObject } from "node:crypto";
import { suppressionsInEvents } from "~/domain/mail-events";
import { readBodyWithin } from "../forms.server";
import { suppressAddress } from "../outreach/suppression.server";
import type { Services } from "../services.server";

/*
 * SendGrid's Event Webhook, signed (docs/decisions/0084, docs/operator-guide.md): SendGrid
 * posts a JSON array of events about the mails it sent, signed with ECDSA (P-256, SHA-256)
 * over the timestamp header followed by the body's bytes exactly as sent.
 */

/** Where the Event Webhook posts (docs/operator-guide.md). */
export const MAIL_EVENTS_PATH = "/mail/events";

/** SendGrid sends a batch when it reaches 768 KB or every 30 seconds; anything far larger is not SendGrid's. */
export const MAIL_EVENTS_MAX_BYTES = 2 * 1024 * 1024;

const SIGNATURE_HEADER = "X-Twilio-Email-Event-Webhook-Signature";
const TIMESTAMP_HEADER = "X-Twilio-Email-Event-Webhook-Timestamp";

/**
 * How far the signed timestamp may be from now, either way: a post recorded and sent again
 * later is refused (a replay inside the window only repeats what is already stored, which
 * changes nothing), and clocks a few minutes apart still agree.
 */
const TIMESTAMP_TOLERANCE_SECONDS = 10 * 60;

/** Whether `signature` (base64 of a DER ECDSA signature) is the key's over the timestamp and then the body. */
export function isSignedBy(
  key: KeyObject,
  { timestamp, body, signature }: { timestamp: string; body: Uint8Array; signature: string },
): boolean {
  try {
    return verify("sha256", Buffer.concat([Buffer.from(timestamp, "utf8"), body]), key, Buffer.from(signature, "base64"));
  } catch {
    // A signature that is not DER at all.
    return false;
  }
}

type SignedPost =
  | { ok: true; events: readonly unknown[] }
  | { ok: false; reason: "unsigned" | "forged" | "stale" | "too-large" | "unreadable" | "not-events" };

/** Reads the post's body (at most MAIL_EVENTS_MAX_BYTES) and checks its signature and age before anything of it is parsed. */
export async function readSignedEvents(request: Request, key: KeyObject, now: Date): Promise<SignedPost> {
  const signature = request.headers.get(SIGNATURE_HEADER);
  const timestamp = request.headers.get(TIMESTAMP_HEADER);
  if (!signature || !timestamp) return { ok: false, reason: "unsigned" };
  const body = await readBodyWithin(request, MAIL_EVENTS_MAX_BYTES);
  if (body === "too-large" || body === "unreadable") return { ok: false, reason: body };
  if (!isSignedBy(key, { timestamp, body, signature })) return { ok: false, reason: "forged" };
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now.getTime() / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS)
    return { ok: false, reason: "stale" };
  try {
    const events: unknown = JSON.parse(Buffer.from(body).toString("utf8"));
    return Array.isArray(events) ? { ok: true, events } : { ok: false, reason: "not-events" };
  } catch {
    return { ok: false, reason: "not-events" };
  }
}

/**
 * Puts every address the events report as a hard bounce or a complaint on the suppression
 * list, all at once: resolves with how many were added and how many were listed already;
 * rejects when the store did not take one of them (the rest are stored; SendGrid's retry of
 * the batch adds the missing ones and finds the others listed).
 */
export async function suppressFromEvents(
  services: Pick<Services, "store" | "writeQueues" | "sendClaims">,
  events: readonly unknown[],
  now: Date,
): Promise<{ added: number; listed: number }> {
  const outcomes = await Promise.allSettled(
    suppressionsInEvents(events).map((suppression) => suppressAddress(services, { ...suppression, now })),
  );
  const failed = outcomes.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
  const added = outcomes.filter((outcome) => outcome.status === "fulfilled" && outcome.value === "added").length;
  return { added, listed: outcomes.length - added };
}
