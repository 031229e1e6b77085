/**
 * Push notifications in the browser, against the push service stand-in
 * (tests/mocks/push-service.ts). Chromium's `pushManager.subscribe` needs a real push
 * service, which this machine cannot reach: an init script replaces
 * `PushManager.prototype.subscribe` to return a subscription the stand-in issued, and
 * everything around it (the permission, the service worker, the page's post, the server's
 * encrypted push, the worker's notification) is real. docs/testing.md says so too.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import type { PushNotice } from "../../app/domain/push-notice";
import type { Agent } from "../../app/domain/workbook/tabs";
import { startPushService, type IssuedSubscription, type PushServiceStandIn } from "../mocks/push-service";
import { expect, test as base } from "./fixtures";
import { fullBrowserLaunch } from "./support/browsers";
import { e2eBaseUrl, PUSH_MAIL_WAIT_MS } from "./support/env";
import { screenshotForPeople } from "./support/screenshots";

const PHONE = { width: 390, height: 844 };

type Cast = { ann: Agent; bob: Agent };

const test = base.extend<{ cast: Cast }>({
  cast: async ({ seedAgent, waitForReplica }, use, testInfo) => {
    const tag = `${testInfo.project.name}-${randomUUID().slice(0, 8)}`;
    const cast = {
      ann: seedAgent({ fullName: "Ann Archer", email: `ann-push-${tag}@example.com` }),
      bob: seedAgent({ fullName: "Bob Brooks", email: `bob-push-${tag}@example.com` }),
    };
    await waitForReplica();
    await use(cast);
  },
});

// The browser tests block service workers (playwright.config.ts); this spec needs the site's.
// Notifications shown by the service worker need the full browser (the headless shell shows none).
test.use({ serviceWorkers: "allow", launchOptions: fullBrowserLaunch });

let pushService: PushServiceStandIn;
test.beforeAll(async () => {
  pushService = await startPushService();
});
test.afterAll(() => pushService.close());

/** Stands in for the browser's push service: `subscribe` answers with the stand-in's subscription. */
async function injectSubscription(page: Page, subscription: IssuedSubscription): Promise<void> {
  await page.context().addInitScript((issued) => {
    PushManager.prototype.subscribe = async function subscribe() {
      return {
        endpoint: issued.endpoint,
        expirationTime: null,
        toJSON: () => ({ ...issued, expirationTime: null }),
      } as unknown as PushSubscription;
    };
  }, subscription);
}

/** The service worker's registration id, through the DevTools protocol, to deliver a push to it. */
async function deliverPush(page: Page, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === `${e2eBaseUrl}/` && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: e2eBaseUrl, registrationId: await registrationId, data });
}

/**
 * A click on the worker's first notification: its `notificationclick` handler runs in the worker. A
 * dispatched event is not trusted, so the handler's `waitUntil` refuses it and `focus()` is not
 * allowed; the page it opens is what is checked.
 */
async function clickNotification(page: Page): Promise<void> {
  const [worker] = page.context().serviceWorkers();
  if (!worker) throw new Error("No service worker runs for the page");
  await worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration } & EventTarget;
    const [notification] = await scope.registration.getNotifications();
    const NotificationEvent = Reflect.get(self, "NotificationEvent") as new (type: string, init: { notification: Notification }) => Event;
    scope.dispatchEvent(new NotificationEvent("notificationclick", { notification: notification! }));
  });
}

function shownNotifications(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map(({ title, body, tag }) => ({ title, body, tag }));
  });
}

test("a member turns push on, another's message arrives as a push within a second, and once read no mail follows @needs-js", async ({
  cast,
  memberPage,
  outbox,
}, testInfo) => {
  test.setTimeout(60_000);
  const { ann, bob } = cast;
  const bobPage = await memberPage(bob, PHONE);
  await bobPage.context().grantPermissions(["notifications"], { origin: e2eBaseUrl });
  const subscription = pushService.subscribe();
  await injectSubscription(bobPage, subscription);
  await bobPage.goto("/settings/notifications");
  // The worker is registered once the page has loaded; the button waits for it to be ready.
  await bobPage.getByRole("button", { name: "Turn on push on this device" }).click();
  await expect(bobPage.getByRole("status")).toHaveText("Push notifications are on for this device.");
  await expect(bobPage.getByRole("heading", { name: "Devices with push (1)" })).toBeVisible();
  await expect(bobPage.getByRole("checkbox", { name: "Push for new messages" })).toBeChecked();
  await screenshotForPeople(bobPage, testInfo, "notification-settings-push-390");
  // Loaded again, the page is the worker's client, as an installed app's window is.
  await bobPage.reload();
  await bobPage.evaluate(() => navigator.serviceWorker.ready);

  const annPage = await memberPage(ann);
  await annPage.goto(`/messages?to=${bob.id}`);
  await annPage.getByRole("textbox", { name: "Message" }).fill("Are you free to show the Tulsa listing on Tuesday?");
  await annPage.getByRole("button", { name: "Send", exact: true }).click();
  const sentAt = Date.now();
  const id = new URL(subscription.endpoint).pathname.split("/").pop();
  await expect.poll(() => pushService.received.filter((push) => push.subscriptionId === id).length, { timeout: 1_000 }).toBe(1);
  const [push] = pushService.received.filter((each) => each.subscriptionId === id);
  expect(push!.receivedAt - sentAt).toBeLessThan(1_000);
  expect(pushService.invalid).toEqual([]);
  const notice = push!.payload as PushNotice;
  expect(notice).toMatchObject({ title: "New message from Ann Archer", body: "Are you free to show the Tulsa listing on Tuesday?" });
  expect(push!.urgency).toBe("high");

  await deliverPush(bobPage, push!.text);
  await expect.poll(() => shownNotifications(bobPage)).toEqual([{ title: notice.title, body: notice.body, tag: notice.tag }]);

  // Bob clicks the notification before the mail's wait ends: his open page goes to the conversation.
  await clickNotification(bobPage);
  await bobPage.waitForURL(`${e2eBaseUrl}${notice.url}`);
  await expect(
    bobPage.getByRole("log", { name: "Messages" }).getByText("Are you free to show the Tulsa listing on Tuesday?"),
  ).toBeVisible();
  // Past the held mail's wait (PUSH_MAIL_WAIT_MS in the browser tests' servers), with room for the queue.
  await bobPage.waitForTimeout(PUSH_MAIL_WAIT_MS + 1_000);
  expect((await outbox.mails()).filter((mail) => mail.to === bob.email)).toEqual([]);
});

test("without JavaScript the push column says it needs JavaScript, and Remove works @js-off-only", async ({
  cast,
  memberPage,
}, testInfo) => {
  const { bob } = cast;
  const bobPage = await memberPage(bob, PHONE);
  // A device added earlier (from a phone with JavaScript), straight through the action's form.
  const { endpoint, keys } = pushService.subscribe();
  const added = await bobPage.request.post("/settings/notifications", {
    form: { intent: "subscribe", endpoint, ...keys, deviceName: "Chrome on Android" },
    headers: { Origin: e2eBaseUrl },
    maxRedirects: 0,
  });
  expect(added.status()).toBe(302);
  await bobPage.goto("/settings/notifications");
  await expect(bobPage.getByText("Push needs JavaScript").first()).toBeVisible();
  await expect(bobPage.getByText("Mail only").first()).toBeVisible();
  await expect(bobPage.getByRole("button", { name: "Turn on push on this device" })).toHaveCount(0);
  await screenshotForPeople(bobPage, testInfo, "notification-settings-devices-390-js-off");
  await bobPage.getByRole("button", { name: "Remove Chrome on Android" }).click();
  await expect(bobPage.getByRole("status")).toHaveText("The device is removed: it gets no more notifications.");
  await expect(bobPage.getByRole("heading", { name: "Devices with push (0)" })).toBeVisible();
  // The mail settings work as before.
  await bobPage.getByRole("checkbox", { name: "New messages", exact: true }).uncheck();
  await bobPage.getByRole("button", { name: "Save Settings" }).click();
  await expect(bobPage.getByRole("status")).toHaveText("Your notification settings are saved.");
});

test("a member who blocked notifications is told how to allow them, and nothing is stored @needs-js", async ({ cast, memberPage }) => {
  const bobPage = await memberPage(cast.bob, PHONE);
  await bobPage.context().addInitScript(() => {
    Notification.requestPermission = async () => "denied";
  });
  await bobPage.goto("/settings/notifications");
  await bobPage.getByRole("button", { name: "Turn on push on this device" }).click();
  await expect(bobPage.getByRole("alert")).toContainText("Notifications are blocked for this site in your browser. To allow them");
  await expect(bobPage.getByRole("heading", { name: "Devices with push (0)" })).toBeVisible();
});
