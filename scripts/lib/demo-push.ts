/**
 * The demo login's two devices with push (the PushSubscriptions tab): a phone and an
 * iPhone. Their endpoints are on the reserved `.example` domain, which no push service
 * answers: a push to them is logged as not delivered and the mail goes as usual.
 */
import { createECDH, createHash } from "node:crypto";
import type { PushSubscription } from "~/domain/workbook/push-tab";
import type { Agent } from "~/domain/workbook/tabs";
import { subscriptionId } from "~/server/push/push.server";
import { clockAt } from "./demo-kit";

const DEVICES = [
  { name: "Chrome on Android", host: "fcm.push.demo.example", daysAgo: 21 },
  { name: "Safari on iPhone", host: "web.push.demo.example", daysAgo: 6 },
] as const;

/** The same keys on every run: a P-256 point from a fixed private key, and a fixed auth secret. */
function demoKeys(key: string): { p256dh: string; auth: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(createHash("sha256").update(`demo-push:${key}`).digest());
  return {
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: createHash("sha256").update(`demo-auth:${key}`).digest().subarray(0, 16).toString("base64url"),
  };
}

export function buildDemoPushSubscriptions(now: Date, login: Agent): PushSubscription[] {
  const clock = clockAt(now);
  return DEVICES.map((device) => {
    const endpoint = `https://${device.host}/push/${createHash("sha256").update(`${login.email}:${device.name}`).digest("hex").slice(0, 32)}`;
    return {
      id: subscriptionId(endpoint),
      agentId: login.id,
      agentEmail: login.email,
      endpoint,
      ...demoKeys(device.name),
      deviceName: device.name,
      status: "active",
      createdAt: clock.daysAgo(device.daysAgo),
      updatedAt: undefined,
      lastSuccessAt: clock.daysAgo(1),
    };
  });
}
