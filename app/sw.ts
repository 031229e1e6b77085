/// <reference lib="webworker" />
/**
 * The service worker, served at /sw.js (built by vite-plugin-pwa with Workbox, vite.config.ts;
 * docs/decisions/0065). Pages come from the network every time; build files are kept once
 * fetched; the offline page answers a navigation only when the network is gone; push
 * messages become notifications that open the page they are about.
 */
import { clientsClaim } from "workbox-core";
import { enable as enableNavigationPreload } from "workbox-navigation-preload";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst, NetworkOnly } from "workbox-strategies";
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { ExpirationPlugin } from "workbox-expiration";
import { NOTICE_BADGE, NOTICE_ICON, noticeFromPayload, noticePath, windowForNotice } from "./domain/push-notice";
import { OFFLINE_PAGE, workerRoute } from "./domain/worker-routes";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

const origin = self.location.origin;

// A new deploy's worker takes over at once: pages never come from its caches, so an open
// page keeps working, and its next navigation is served by the new worker.
self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
// The page's request starts while the worker boots, so going through the worker costs a navigation no time.
enableNavigationPreload();

// The offline page, the stylesheet and fonts, and the notification icons: what a phone needs with no network.
precacheAndRoute(self.__WB_MANIFEST);

registerRoute(({ request }) => workerRoute(request, origin) === "page", new NetworkOnly());

registerRoute(
  ({ request }) => workerRoute(request, origin) === "asset",
  new CacheFirst({
    cacheName: "assets",
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 300, purgeOnQuotaError: true })],
  }),
);

// Reached only when the network failed: a page gets the offline page instead of the browser's error.
setCatchHandler(async ({ request }) => {
  if (request.mode === "navigate") return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
  return Response.error();
});

self.addEventListener("push", (event) => {
  const notice = noticeFromPayload(event.data ? event.data.text() : null, origin);
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: NOTICE_ICON,
      badge: NOTICE_BADGE,
      data: { url: notice.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openNoticePage(new URL(noticePath(event.notification.data, origin), origin).href));
});

async function openNoticePage(target: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const choice = windowForNotice(windows, target);
  if (choice.action === "focus") {
    await choice.window.focus();
    return;
  }
  if (choice.action === "navigate") {
    // navigate() answers null for a window this worker does not control: a new window then.
    const navigated = await choice.window.navigate(target).catch(() => null);
    if (navigated) {
      await navigated.focus();
      return;
    }
  }
  await self.clients.openWindow(target);
}
