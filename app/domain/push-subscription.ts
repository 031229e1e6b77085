/**
 * The subscription a browser posts when a member turns push on for a device (the
 * `PushSubscription.toJSON()` fields, flattened into the form, and the device's name).
 * Kept apart from push.ts, which the workbook's tab definitions import, so the schema
 * library does not come along with them.
 */
import { z } from "zod";

const PUSH_SUBSCRIPTION_MESSAGES = {
  endpoint: "This browser gave a push address the site cannot use. Please try again, or use another browser.",
  keys: "This browser gave push keys the site cannot use. Please try again, or use another browser.",
} as const;

/** RFC 8291's keys, base64url without padding: a P-256 point (65 bytes, uncompressed, so it starts with 0x04, "B") and a 16-byte secret. */
const P256DH = /^B[A-Za-z0-9_-]{86}$/;
const AUTH = /^[A-Za-z0-9_-]{22}$/;
const DEVICE_NAME_LENGTH = 60;
const ENDPOINT_LENGTH = 2048;

function unpadded(value: string): string {
  return value.trim().replace(/=+$/, "");
}

/**
 * The browsers' push services (Chrome and Android, Safari, Firefox, Edge): in production the
 * server posts only to them, so an endpoint a member typed cannot make it call another host.
 */
const PUSH_SERVICE_HOSTS = [
  "fcm.googleapis.com",
  "android.googleapis.com",
  "push.apple.com",
  "push.services.mozilla.com",
  "notify.windows.com",
];

function isPushServiceHost(hostname: string): boolean {
  return PUSH_SERVICE_HOSTS.some((host) => hostname === host || hostname.endsWith(`.${host}`));
}

/**
 * In production, https to a browser's push service. Outside production any https host, and
 * plain http on 127.0.0.1 for the tests' loopback stand-in.
 */
function isPushEndpoint(value: string, production: boolean): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username || url.password) return false;
  if (production) return url.protocol === "https:" && isPushServiceHost(url.hostname);
  return url.protocol === "https:" || (url.protocol === "http:" && url.hostname === "127.0.0.1");
}

export function pushSubscriptionSchema({ production }: { production: boolean }) {
  return z.object({
    intent: z.literal("subscribe"),
    endpoint: z
      .string({ error: PUSH_SUBSCRIPTION_MESSAGES.endpoint })
      .trim()
      .max(ENDPOINT_LENGTH, { error: PUSH_SUBSCRIPTION_MESSAGES.endpoint })
      .refine((value) => isPushEndpoint(value, production), { error: PUSH_SUBSCRIPTION_MESSAGES.endpoint }),
    p256dh: z
      .string({ error: PUSH_SUBSCRIPTION_MESSAGES.keys })
      .transform(unpadded)
      .refine((value) => P256DH.test(value), { error: PUSH_SUBSCRIPTION_MESSAGES.keys }),
    auth: z
      .string({ error: PUSH_SUBSCRIPTION_MESSAGES.keys })
      .transform(unpadded)
      .refine((value) => AUTH.test(value), { error: PUSH_SUBSCRIPTION_MESSAGES.keys }),
    deviceName: z
      .string()
      .optional()
      .transform((value) => value?.replace(/\s+/g, " ").trim().slice(0, DEVICE_NAME_LENGTH) || "Unnamed device"),
  });
}

/** The Remove button of one device in the list. */
export const removeDeviceSchema = z.object({
  intent: z.literal("remove-device"),
  deviceId: z.string({ error: "Please choose a device to remove" }).trim().min(1),
});
