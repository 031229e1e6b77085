import { generateKeyPairSync, sign } from "node:crypto";

/**
 * Posts built as SendGrid's signed Event Webhook builds them: a JSON array of events, signed
 * with an ECDSA P-256 key over the timestamp header followed by the body's bytes, the
 * signature base64 of its DER form. The key pair is made here; its public half is given the
 * way SendGrid's settings page shows it (base64 of the DER SubjectPublicKeyInfo), so the
 * app's own verification runs on it.
 */

export type SendgridEvent = {
  email: string;
  event: string;
  timestamp?: number;
  type?: string;
  reason?: string;
  status?: string;
  sg_event_id?: string;
  sg_message_id?: string;
  [field: string]: unknown;
};

export type SignedEventPost = { body: string; headers: Record<string, string> };

export function eventWebhookSigner() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const publicKeyBase64 = publicKey.export({ format: "der", type: "spki" }).toString("base64");

  /** The post SendGrid sends for these events at `at`, its body the JSON bytes as SendGrid writes them (with its trailing CRLF). */
  function post(events: readonly SendgridEvent[], at = new Date()): SignedEventPost {
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const body = `${JSON.stringify(events.map((event) => ({ timestamp: Number(timestamp) - 5, ...event })))}\r\n`;
    return { body, headers: signedHeaders(body, timestamp) };
  }

  function signedHeaders(body: string, timestamp: string): Record<string, string> {
    const signature = sign("sha256", Buffer.concat([Buffer.from(timestamp), Buffer.from(body, "utf8")]), privateKey).toString("base64");
    return {
      "Content-Type": "application/json",
      "X-Twilio-Email-Event-Webhook-Signature": signature,
      "X-Twilio-Email-Event-Webhook-Timestamp": timestamp,
    };
  }

  return { publicKeyBase64, post, signedHeaders };
}

let eventCount = 0;

/** One event of the kind, with the ids SendGrid gives every event. */
export function sendgridEvent(email: string, event: string, fields: Partial<SendgridEvent> = {}): SendgridEvent {
  eventCount += 1;
  return {
    email,
    event,
    sg_event_id: `ZHJvcC0xMDk5NDkxOS1${eventCount}`,
    sg_message_id: `LRzXl_NHStOGhQ4kofSm_A.filterdrecv-${eventCount}`,
    "smtp-id": `<LRzXl_NHStOGhQ4kofSm_A${eventCount}@ismtpd0039p1iad1.sendgrid.net>`,
    ...fields,
  };
}
