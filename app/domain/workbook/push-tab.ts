/**
 * Members' devices for Web Push: one row per push endpoint (a browser on a device), listed
 * in the workbook (`tabs.ts`) like every other tab. Staff deleting a row stops that device's
 * notifications; a member's Remove sets the status to removed, and subscribing the same
 * browser again reuses the row.
 */
import { choice, email, optionalTime, reference, requiredText, text, time } from "./columns";
import { defineTab, type TabRecord } from "./define-tab";

const PUSH_SUBSCRIPTION_STATUSES = ["active", "removed"] as const;

export const PUSH_SUBSCRIPTIONS_TAB = defineTab({
  name: "PushSubscriptions",
  appendOnly: false,
  columns: {
    /** Made from the endpoint, so one endpoint is one row however many instances subscribe it at once. */
    id: requiredText(),
    agentId: reference(),
    agentEmail: email({ required: true }),
    /** The push service's address for this browser (RFC 8030), given by the browser. */
    endpoint: requiredText(),
    /** The browser's public key and auth secret for the payload's encryption (RFC 8291), base64url. */
    p256dh: requiredText(),
    auth: requiredText(),
    /** As the browser reports itself, e.g. "Chrome on Android". */
    deviceName: text(),
    status: choice(PUSH_SUBSCRIPTION_STATUSES, "active"),
    createdAt: time(),
    updatedAt: optionalTime(),
    /** When a push last landed on it, written at most once an hour. */
    lastSuccessAt: optionalTime(),
  },
  indexes: {
    agentEmail: (subscription) => subscription.agentEmail,
    endpoint: (subscription) => subscription.endpoint,
  },
  // Two instances subscribing one endpoint at once append one id twice: the later row is the newer subscription.
  mergeDuplicates: (_first, later) => later,
});

export type PushSubscription = TabRecord<typeof PUSH_SUBSCRIPTIONS_TAB>;
