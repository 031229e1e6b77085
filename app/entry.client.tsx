import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode, useEffect, type ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";

/**
 * The events that make React hydrate the page at once, synchronously, when one reaches a
 * page still hydrating.
 */
const URGENT_EVENTS = [
  "auxclick",
  "change",
  "click",
  "compositionend",
  "compositionstart",
  "contextmenu",
  "copy",
  "cut",
  "dblclick",
  "dragend",
  "dragstart",
  "drop",
  "input",
  "keydown",
  "keypress",
  "keyup",
  "mousedown",
  "mouseup",
  "paste",
  "pointercancel",
  "pointerdown",
  "pointerup",
  "reset",
  "submit",
  "textInput",
  "touchcancel",
  "touchend",
  "touchstart",
] as const;

type RemixWindow = Window & { __remixContext?: { state?: unknown } };

/** Until Remix has read the page's data, its first render waits for it and cannot be done at once. */
const pageDataRead = () => (window as RemixWindow).__remixContext?.state !== undefined;

/**
 * Keeps urgent events from React while Remix reads the page's data. React 18 answers such an
 * event by hydrating synchronously; a root that is still waiting for that data cannot, and
 * React gives up on the page ("Root did not complete"), leaving it without scripts. Held back
 * here, the event still does what it does without JavaScript (a link opens, a form submits, a
 * field changes), and the page's scripts pick up a changed field once they run.
 */
function holdUrgentEventsUntilDataRead(): () => void {
  const hold = (event: Event) => {
    if (pageDataRead()) release();
    else event.stopPropagation();
  };
  const release = () => URGENT_EVENTS.forEach((type) => window.removeEventListener(type, hold, true));
  URGENT_EVENTS.forEach((type) => window.addEventListener(type, hold, true));
  return release;
}

function ReleaseOnHydration({ release, children }: { release: () => void; children: ReactNode }) {
  useEffect(release, [release]);
  return children;
}

/** Longest a first visit waits for an idle moment before it installs the worker anyway. */
const REGISTER_AT_LATEST_MS = 10_000;

/**
 * The service worker (app/sw.ts), once the page has loaded and the browser is idle: installing
 * it starts a worker and fetches its files, which on a phone's few cores would otherwise slow
 * the page's own start (measured: the dashboard's Total Blocking Time under Lighthouse's mobile
 * throttling, docs/performance.md). Only the build has one: `npm run dev` serves none. (The
 * build's mode, not `PROD`, which follows NODE_ENV: the browser tests build with NODE_ENV=test.)
 * A browser without workers, or one that refuses (private modes, tests that block them), keeps
 * the site as it is.
 */
function registerServiceWorker(): void {
  if (import.meta.env.MODE !== "production" || !("serviceWorker" in navigator)) return;
  const register = () => void navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
  const whenIdle = () =>
    "requestIdleCallback" in window ? requestIdleCallback(register, { timeout: REGISTER_AT_LATEST_MS }) : setTimeout(register, 1_000);
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
}

registerServiceWorker();
const release = holdUrgentEventsUntilDataRead();
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <ReleaseOnHydration release={release}>
        <RemixBrowser />
      </ReleaseOnHydration>
    </StrictMode>,
  );
});
