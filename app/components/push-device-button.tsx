import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { deviceNameFrom } from "~/domain/push";
import type { FormResult } from "./form";

/** What each way of failing tells the member, and how to get past it. */
const PROBLEMS = {
  unsupported:
    "This browser cannot receive push notifications. On an iPhone or iPad, add the site to your Home Screen first, then open it from there.",
  denied:
    "Notifications are blocked for this site in your browser. To allow them, open the site's settings (the icon beside the address), set Notifications to Allow, then press the button again.",
  dismissed: "You closed the browser's question without allowing notifications. Press the button again and choose Allow.",
  failed: "This browser could not set up push notifications just now. Reload the page and try again.",
} as const;

/** How long the service worker may take to be ready before the member is told to reload. */
const WORKER_READY_MS = 10_000;

/** The User-Agent Client Hints where the browser has them (Chromium). */
type NavigatorWithHints = Navigator & { userAgentData?: { platform?: string; brands?: { brand: string }[] } };

/**
 * Turns push on for this device: asks the browser's permission only when pressed (never on
 * page load), subscribes through the service worker with the site's VAPID key, and posts
 * the subscription and the device's name to the settings page's action.
 */
export function PushDeviceButton({ publicKey }: { publicKey: string }) {
  const fetcher = useFetcher<FormResult>();
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const busy = asking || fetcher.state !== "idle";
  const refused = fetcher.data?.error?.[""]?.[0] ?? Object.values(fetcher.data?.error ?? {}).flat()[0];

  async function turnOn() {
    setProblem(null);
    setAsking(true);
    try {
      const subscription = await subscribeThisBrowser(publicKey);
      if (typeof subscription === "string") return setProblem(PROBLEMS[subscription]);
      const { endpoint = "", keys = {} } = subscription.toJSON();
      const navigatorWithHints = navigator as NavigatorWithHints;
      fetcher.submit(
        {
          intent: "subscribe",
          endpoint,
          p256dh: keys.p256dh ?? "",
          auth: keys.auth ?? "",
          deviceName: deviceNameFrom(navigator.userAgent, navigatorWithHints.userAgentData),
        },
        { method: "post" },
      );
    } catch {
      setProblem(PROBLEMS.failed);
    } finally {
      setAsking(false);
    }
  }

  const message = problem ?? refused;
  return (
    <div className="space-y-2">
      <button type="button" className="btn-primary w-full sm:w-auto" onClick={() => void turnOn()} disabled={busy} aria-busy={busy}>
        {busy ? "Turning on..." : "Turn on push on this device"}
      </button>
      {message ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {message}
        </p>
      ) : null}
    </div>
  );
}

async function subscribeThisBrowser(publicKey: string): Promise<PushSubscription | keyof typeof PROBLEMS> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission === "denied") return "denied";
  if (permission !== "granted") return "dismissed";
  const registration = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), WORKER_READY_MS)),
  ]);
  if (!registration) return "failed";
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(publicKey) });
}

/** The VAPID key as bytes: base64url to a Uint8Array. */
function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}
