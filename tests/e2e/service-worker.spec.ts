import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { e2eBaseUrl } from "./support/env";

// These specs are about the worker itself: it runs here (playwright.config.ts keeps it out of the others).
test.use({ serviceWorkers: "allow" });

/** Opens `path` and waits until the site's worker is active and controls the page (it claims open pages when it activates). */
async function withActiveWorker(page: Page, path = "/"): Promise<void> {
  await page.goto(path);
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}

type ShownNotice = { title: string; body: string; tag: string; icon: string; badge: string; url: unknown };

async function shownNotifications(page: Page): Promise<ShownNotice[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map((notice) => ({
      title: notice.title,
      body: notice.body,
      tag: notice.tag,
      icon: notice.icon,
      badge: notice.badge,
      url: (notice.data as { url?: unknown } | null)?.url,
    }));
  });
}

/**
 * Delivers a push message to the site's worker as a push service would, through the DevTools
 * protocol (Chromium cannot subscribe to a real push service here); `data` is its payload.
 */
async function deliverPush(context: BrowserContext, page: Page, data: string): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === `${e2eBaseUrl}/` && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: e2eBaseUrl, registrationId: await registrationId, data });
  await cdp.detach();
}

/** What a click on the notification tagged `tag` does, dispatched in the worker as the browser would. */
async function clickNotification(context: BrowserContext, tag: string): Promise<void> {
  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error("The site's worker is not running");
  await worker.evaluate(async (tag) => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [notification] = await scope.registration.getNotifications({ tag });
    if (!notification) throw new Error(`No notification tagged ${tag}`);
    scope.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
  }, tag);
}

test.describe("the service worker @needs-js", () => {
  test.beforeEach(async ({ context }) => {
    await context.grantPermissions(["notifications"], { origin: e2eBaseUrl });
  });

  test("shows a pushed notice as a notification, and a click opens its page in the open window", async ({ page, context }) => {
    await withActiveWorker(page, "/");
    const tag = `message-${Date.now()}`;
    await deliverPush(
      context,
      page,
      JSON.stringify({ title: "New message from Grace Nguyen", body: "Is the Denton listing still open?", url: "/contact?from=push", tag }),
    );

    await expect
      .poll(() => shownNotifications(page))
      .toContainEqual({
        title: "New message from Grace Nguyen",
        body: "Is the Denton listing still open?",
        tag,
        icon: `${e2eBaseUrl}/icons/icon-192.png`,
        badge: `${e2eBaseUrl}/icons/badge-72.png`,
        url: "/contact?from=push",
      });

    await clickNotification(context, tag);
    await expect(page).toHaveURL(`${e2eBaseUrl}/contact?from=push`);
    await expect(page.getByRole("heading", { level: 1, name: "Contact Support" })).toBeVisible();
    // The click closed it.
    await expect.poll(async () => (await shownNotifications(page)).some((notice) => notice.tag === tag)).toBe(false);
  });

  test("shows the generic notice for a payload that is not a notice, and never follows another site's address", async ({
    page,
    context,
  }) => {
    await withActiveWorker(page, "/");
    await deliverPush(context, page, "not json");
    await expect
      .poll(() => shownNotifications(page))
      .toContainEqual(expect.objectContaining({ title: "New activity on Red River Referrals", tag: "activity", url: "/member-dashboard" }));

    const tag = `foreign-${Date.now()}`;
    await deliverPush(context, page, JSON.stringify({ title: "Look", body: "here", url: "https://evil.example/phish", tag }));
    await expect.poll(() => shownNotifications(page)).toContainEqual(expect.objectContaining({ tag, url: "/member-dashboard" }));
  });
});
