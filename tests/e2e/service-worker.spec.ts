import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { fullBrowserLaunch } from "./support/browsers";
import { e2eBaseUrl } from "./support/env";

// These specs are about the worker itself: it runs here (playwright.config.ts keeps it out of the others).
// Notifications shown by the service worker need the full browser (the headless shell shows none).
test.use({ serviceWorkers: "allow", launchOptions: fullBrowserLaunch });

/**
 * A visitor's page that loads scripts, so registers the worker: the public pages come to a
 * visitor without any (decision 0085).
 */
const VISITOR_PAGE_WITH_SCRIPTS = "/member-login";

/** Opens `path` and waits until the site's worker is active and controls the page (it claims open pages when it activates). */
async function withActiveWorker(page: Page, path = VISITOR_PAGE_WITH_SCRIPTS): Promise<void> {
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
    await withActiveWorker(page);
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
    await withActiveWorker(page);
    await deliverPush(context, page, "not json");
    await expect
      .poll(() => shownNotifications(page))
      .toContainEqual(expect.objectContaining({ title: "New activity on Red River Referrals", tag: "activity", url: "/member-dashboard" }));

    const tag = `foreign-${Date.now()}`;
    await deliverPush(context, page, JSON.stringify({ title: "Look", body: "here", url: "https://evil.example/phish", tag }));
    await expect.poll(() => shownNotifications(page)).toContainEqual(expect.objectContaining({ tag, url: "/member-dashboard" }));
  });
});

test.describe("pages with the worker running @needs-js", () => {
  test("a member page comes from the server on every load, never from a cache", async ({ page, seedAgent, waitForReplica, login }) => {
    const member = seedAgent({ fullName: "Wanda Worker" });
    await waitForReplica();
    await login(member);
    await withActiveWorker(page, "/member-dashboard");

    // Each server answer carries a fresh CSP nonce: two loads with the worker in between must differ.
    const nonces: string[] = [];
    for (let load = 0; load < 2; load++) {
      const response = await page.goto("/member-dashboard");
      expect(response?.status()).toBe(200);
      const nonce = /nonce="([^"]+)"/.exec((await response?.text()) ?? "")?.[1];
      expect(nonce).toBeTruthy();
      nonces.push(nonce!);
    }
    expect(nonces[0]).not.toBe(nonces[1]);

    // And nothing but build files, the offline page and the icons is ever kept.
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(kept.length).toBeGreaterThan(0);
    for (const path of kept) expect(path).toMatch(/^\/(assets\/|offline\.html$|icons\/|favicon\.svg$)/);
  });

  test("without a network a page says so with Try again, which opens the page once the network is back", async ({
    page,
    context,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const member = seedAgent({ fullName: "Olive Offline" });
    await waitForReplica();
    await login(member);
    await withActiveWorker(page, "/member-dashboard");

    await context.setOffline(true);
    await page.goto("/referrals?side=sent");
    await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
    await expect(page).toHaveURL(`${e2eBaseUrl}/referrals?side=sent`);
    const tryAgain = page.getByRole("link", { name: "Try again" });
    // Still offline: Try again shows the offline page again rather than the browser's error.
    await tryAgain.click();
    await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();

    await context.setOffline(false);
    await page.getByRole("link", { name: "Try again" }).click();
    await expect(page).toHaveURL(`${e2eBaseUrl}/referrals?side=sent`);
    await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeHidden();
    await expect(page.getByRole("banner")).toBeVisible();
  });

  test("build files come from the worker's cache on the second visit", async ({ page }) => {
    await withActiveWorker(page);
    const fromWorker: string[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/assets/") && response.fromServiceWorker()) fromWorker.push(response.url());
    });
    await page.goto(VISITOR_PAGE_WITH_SCRIPTS);
    await page.goto(VISITOR_PAGE_WITH_SCRIPTS);
    expect(fromWorker.some((url) => url.endsWith(".js"))).toBe(true);
    expect(fromWorker.some((url) => url.endsWith(".css"))).toBe(true);
  });
});

test.describe("the installable app", () => {
  test("passes Chromium's installability check, its manifest read through the DevTools protocol @needs-js", async ({
    playwright,
    launchOptions,
  }) => {
    // Chromium offers no install in an incognito profile, which every Playwright context is but a persistent one.
    const profile = mkdtempSync(path.join(tmpdir(), "installable-"));
    const context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, serviceWorkers: "allow" });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await withActiveWorker(page, `${e2eBaseUrl}${VISITOR_PAGE_WITH_SCRIPTS}`);
      const cdp = await context.newCDPSession(page);
      const manifest = await cdp.send("Page.getAppManifest");
      expect(manifest.url).toBe(`${e2eBaseUrl}/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
      expect(JSON.parse(manifest.data ?? "{}")).toMatchObject({
        name: "Red River Referrals",
        start_url: "/member-dashboard",
        display: "standalone",
        scope: "/",
        theme_color: "#1e3a8a",
      });
      const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test("serves the worker for revalidation on every load and the manifest as a manifest @server-only", async ({ request }) => {
    const worker = await request.get("/sw.js");
    expect(worker.status()).toBe(200);
    expect(worker.headers()["cache-control"]).toBe("no-cache");
    expect(worker.headers()["content-type"]).toMatch(/^(application|text)\/javascript/);

    const manifest = await request.get("/manifest.webmanifest");
    expect(manifest.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
    const icons = (await manifest.json()).icons as Array<{ src: string; sizes: string; purpose: string }>;
    for (const icon of icons) expect((await request.get(icon.src)).status()).toBe(200);

    const page = await request.get("/");
    const html = await page.text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
    expect(html).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"/>');
    expect(html).toContain('<meta name="theme-color" content="#1e3a8a"/>');
  });

  test("registers no worker when scripts are off @js-off-only", async ({ page, context }) => {
    await page.goto("/");
    await page.goto("/contact");
    await expect(page.getByRole("heading", { level: 1, name: "Contact Support" })).toBeVisible();
    expect(context.serviceWorkers()).toEqual([]);
  });
});
