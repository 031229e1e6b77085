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
 * A push service is reached over https; outside production the loopback stand-in of the
 * tests speaks plain http on 127.0.0.1.
 */
function isPushEndpoint(value: string, allowLoopbackHttp: boolean): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username || url.password) return false;
  return url.protocol === "https:" || (allowLoopbackHttp && url.protocol === "http:" && url.hostname === "127.0.0.1");
}

export function pushSubscriptionSchema({ allowLoopbackHttp }: { allowLoopbackHttp: boolean }) {
  return z.object({
    intent: z.literal("subscribe"),
    endpoint: z
      .string({ error: PUSH_SUBSCRIPTION_MESSAGES.endpoint })
      .trim()
      .max(ENDPOINT_LENGTH, { error: PUSH_SUBSCRIPTION_MESSAGES.endpoint })
      .refine((value) => isPushEndpoint(value, allowLoopbackHttp), { error: PUSH_SUBSCRIPTION_MESSAGES.endpoint }),
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
