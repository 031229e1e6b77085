import { createHash } from "node:crypto";
import webPush from "web-push";
import type { PushNotice } from "~/domain/push-notice";
import type { PushSubscription } from "~/domain/workbook/push-tab";
import type { Agent } from "~/domain/workbook/tabs";
import type { Config } from "../config.server";
import type { WriteQueues } from "../store/write-queues.server";
import type { Store } from "../store/store.server";

/**
 * Web Push delivery (RFC 8030, 8291, 8292) through `web-push`, and the members' devices in
 * the PushSubscriptions tab (docs/mail.md, docs/decisions/0067). Only the notifier sends;
 * the settings page lists, adds and removes devices, always of the member asking.
 */
export type Push = {
  /** The VAPID public key browsers subscribe with; undefined while push is off (not configured). */
  readonly publicKey: string | undefined;
  /** Why push is off, e.g. "VAPID_PRIVATE_KEY not set"; undefined when it is on. */
  readonly offBecause: string | undefined;
  /** The member's active devices, oldest first. */
  devices(member: Pick<Agent, "id" | "email">): PushSubscription[];
  /** Stores a browser's subscription for the member: the same endpoint again updates its row, moving it from any other member. */
  subscribe(member: Pick<Agent, "id" | "email">, subscription: NewSubscription, now: Date): Promise<PushSubscription>;
  /** Removes one of the member's devices; false when the member has no such device. */
  remove(member: Pick<Agent, "id" | "email">, deviceId: string, now: Date): Promise<boolean>;
  /**
   * Sends the notice to each of the member's devices: true when at least one push service
   * took it (201). A device whose push service answers 404 or 410 is removed; 429 and 5xx
   * are tried again after a wait (Retry-After when given). Never rejects.
   */
  deliver(member: Pick<Agent, "id" | "email">, notice: PushNotice, options: DeliveryOptions): Promise<boolean>;
};

type NewSubscription = { endpoint: string; p256dh: string; auth: string; deviceName: string };

/** RFC 8030's Urgency: high for what has a clock on it (a message, an invitation, a deadline). */
type DeliveryOptions = {
  urgency: "high" | "normal";
  /** Waits before a new try; false when the wait was cut short (the app is stopping) and the push is given up. */
  pause(ms: number): Promise<boolean>;
};

type Deps = {
  store: Store;
  writeQueues: WriteQueues;
  config: Pick<Config, "push" | "pushRetryDelaysMs">;
  log?: Pick<Console, "error" | "warn">;
};

/** A push older than this is not worth showing: the mail (or the page) has said it by then. */
const TTL_SECONDS = 24 * 60 * 60;
/** "Last notification" is written at most this often per device, so a lively conversation does not write the sheet on every push. */
const LAST_SUCCESS_EVERY_MS = 60 * 60_000;
/** A Retry-After longer than this gives the push up: the mail is not held for it. */
const LONGEST_RETRY_AFTER_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** One row per endpoint: the id is made from it, so every instance names a subscription alike. */
export function subscriptionId(endpoint: string): string {
  return `push-${createHash("sha256").update(endpoint).digest("hex").slice(0, 24)}`;
}

function owns(member: Pick<Agent, "id" | "email">, row: PushSubscription): boolean {
  return row.agentId === member.id && row.agentEmail === member.email;
}

export function createPush({ store, writeQueues, config, log = console }: Deps): Push {
  const vapid = config.push.vapid;

  function devices(member: Pick<Agent, "id" | "email">): PushSubscription[] {
    return store.pushSubscriptions.by("agentEmail", member.email).filter((row) => row.status === "active" && owns(member, row));
  }

  async function subscribe(member: Pick<Agent, "id" | "email">, subscription: NewSubscription, now: Date): Promise<PushSubscription> {
    const id = subscriptionId(subscription.endpoint);
    return writeQueues.serially(`push-subscription:${id}`, async () => {
      const fields = { agentId: member.id, agentEmail: member.email, ...subscription, status: "active" as const };
      if (store.pushSubscriptions.get(id)) return store.pushSubscriptions.update(id, { ...fields, updatedAt: now.toISOString() });
      return store.pushSubscriptions.insertOnce(
        { id, ...fields, createdAt: now.toISOString(), updatedAt: undefined, lastSuccessAt: undefined },
        { lookInStore: true },
      );
    });
  }

  async function remove(member: Pick<Agent, "id" | "email">, deviceId: string, now: Date): Promise<boolean> {
    return writeQueues.serially(`push-subscription:${deviceId}`, async () => {
      const row = store.pushSubscriptions.get(deviceId);
      if (!row || row.status !== "active" || !owns(member, row)) return false;
      await store.pushSubscriptions.update(deviceId, { status: "removed", updatedAt: now.toISOString() });
      return true;
    });
  }

  /** Marks a device gone (its push service forgot it) unless it was subscribed again meanwhile. */
  async function forget(row: PushSubscription, now: Date): Promise<void> {
    await writeQueues.serially(`push-subscription:${row.id}`, async () => {
      const current = store.pushSubscriptions.get(row.id);
      if (!current || current.status !== "active" || current.p256dh !== row.p256dh) return;
      await store.pushSubscriptions.update(row.id, { status: "removed", updatedAt: now.toISOString() });
    });
  }

  async function noteSuccess(row: PushSubscription, now: Date): Promise<void> {
    await writeQueues.serially(`push-subscription:${row.id}`, async () => {
      const last = store.pushSubscriptions.get(row.id)?.lastSuccessAt;
      if (last !== undefined && now.getTime() - Date.parse(last) < LAST_SUCCESS_EVERY_MS) return;
      await store.pushSubscriptions.update(row.id, { lastSuccessAt: now.toISOString() });
    });
  }

  /** One device: landed, gone (404/410) or failed after the tries. */
  async function sendTo(row: PushSubscription, payload: string, options: DeliveryOptions): Promise<"landed" | "gone" | "failed"> {
    const details = webPush.generateRequestDetails({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, payload, {
      vapidDetails: vapid,
      TTL: TTL_SECONDS,
      urgency: options.urgency,
      contentEncoding: "aes128gcm",
    });
    for (let attempt = 0; ; attempt += 1) {
      const answer = await post(details).catch((error: unknown) => error as Error);
      if (!(answer instanceof Error) && answer.status >= 200 && answer.status < 300) return "landed";
      if (!(answer instanceof Error) && (answer.status === 404 || answer.status === 410)) return "gone";
      const retryable = answer instanceof Error || answer.status === 429 || answer.status >= 500;
      const wait = retryable ? waitBeforeTry(answer, config.pushRetryDelaysMs[attempt]) : undefined;
      if (wait === undefined) {
        log.error(
          `Push: the push service of device ${row.id} refused a notification (${answer instanceof Error ? answer.message : `HTTP ${answer.status}`}); not tried again.`,
        );
        return "failed";
      }
      if (!(await options.pause(wait))) return "failed";
    }
  }

  async function deliver(member: Pick<Agent, "id" | "email">, notice: PushNotice, options: DeliveryOptions): Promise<boolean> {
    if (!vapid) return false;
    const payload = JSON.stringify(notice);
    const results = await Promise.all(
      devices(member).map(async (row) => {
        const result = await sendTo(row, payload, options).catch((error: unknown) => {
          log.error(`Push: could not send to device ${row.id}`, error);
          return "failed" as const;
        });
        const now = new Date();
        const bookkeeping = result === "landed" ? noteSuccess(row, now) : result === "gone" ? forget(row, now) : undefined;
        await bookkeeping?.catch((error: unknown) => log.error(`Push: could not record the answer for device ${row.id}`, error));
        return result;
      }),
    );
    return results.includes("landed");
  }

  return { publicKey: vapid?.publicKey, offBecause: config.push.offBecause, devices, subscribe, remove, deliver };
}

type RequestDetails = ReturnType<typeof webPush.generateRequestDetails>;

/** `web-push` builds the request (VAPID header, RFC 8291 body); it is sent here, so a push service on plain http (the tests' stand-in) works too. */
async function post(details: RequestDetails): Promise<{ status: number; retryAfter: string | null }> {
  const response = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ? new Uint8Array(details.body) : undefined,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  await response.body?.cancel();
  return { status: response.status, retryAfter: response.headers.get("retry-after") };
}

/** The wait before the next try: the push service's Retry-After when it gave one, else the configured step; undefined gives up. */
function waitBeforeTry(answer: Error | { retryAfter: string | null }, step: number | undefined): number | undefined {
  if (step === undefined) return undefined;
  const asked = answer instanceof Error ? undefined : retryAfterMs(answer.retryAfter);
  if (asked === undefined) return step;
  return asked <= LONGEST_RETRY_AFTER_MS ? asked : undefined;
}

/** Retry-After as seconds or an HTTP date (RFC 9110). */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
