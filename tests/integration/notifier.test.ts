/**
 * The notifier's queue (docs/mail.md): a sender is answered before any mail or claim, tests
 * wait on the queue, and a stop drains it: each queued mail is sent or recorded as not
 * sent, never half.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Mail, Mailer } from "../../app/server/mail/mailer.server";
import { createNotifier } from "../../app/server/notifier/notifier.server";
import { stopServices } from "../../app/server/service-lifecycle.server";
import { createStoreFromConfig } from "../../app/server/store/store.server";
import { testContext } from "../support/services";

afterEach(() => vi.restoreAllMocks());

/** A driver whose sends each take `ms`, keeping what it was handed. */
function slowDriver(ms: number): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return {
    driver: "outbox",
    sent,
    async send(mail) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      sent.push(mail);
    },
  };
}

const mail = (n: number): Mail => ({ to: `agent${n}@example.com`, subject: `Mail ${n}`, text: "Hello", html: "<p>Hello</p>" });

describe("the notifier", () => {
  it("answers the sender before any claim or mail, and idle() waits for them", async () => {
    const context = testContext();
    const { services } = context;
    await services.store.refresh();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: Mail[] = [];
    const driver: Mailer = { driver: "outbox", send: async (each) => void (await held, sent.push(each)) };
    const notifier = createNotifier({ driver, claims: services.sendClaims, config: services.config });

    const { outcome } = notifier.enqueue({ mail: mail(1), about: "mail 1" }, { once: "test:1" });
    // Nothing has run yet: not even the claim's append.
    expect(services.store.sendClaims.all()).toEqual([]);
    let settled = false;
    const idle = notifier.idle().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    await vi.waitFor(() => expect(services.store.sendClaims.by("key", "test:1")).toHaveLength(1));
    expect(settled).toBe(false);
    release();
    await idle;
    expect(await outcome).toBe("sent");
    expect(sent.map((each) => each.subject)).toEqual(["Mail 1"]);
  });

  it("tries a refused mail again after each configured wait, then records it failed under its claim", async () => {
    const context = testContext();
    const { services } = context;
    await services.store.refresh();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    let tries = 0;
    const driver: Mailer = {
      driver: "outbox",
      send: () => {
        tries += 1;
        return Promise.reject(new Error("SendGrid refused the mail: status 503"));
      },
    };
    const notifier = createNotifier({ driver, claims: services.sendClaims, config: services.config });
    const { outcome } = notifier.enqueue({ mail: mail(1), about: "mail 1" }, { once: "test:refused" });
    expect(await outcome).toBe("failed");
    expect(tries).toBe(services.config.mailRetryDelaysMs.length + 1);
    expect(services.store.sendClaims.by("key", "test:refused").map((claim) => claim.outcome)).toEqual(["claimed", "failed"]);
    expect(errors).toHaveBeenCalledWith("Mail: mail 1 could not be sent; it is not tried again.", expect.any(Error));
  });

  it("drains at stopServices: every queued mail is sent or recorded as not sent, none half", { timeout: 30_000 }, async () => {
    const context = testContext();
    const { services } = context;
    await services.store.refresh();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // Four at a time, 1.5 s each: the drain's 2 s see eight reach the driver and four wait past it.
    const driver = slowDriver(1_500);
    services.notifier = createNotifier({ driver, claims: services.sendClaims, config: services.config });
    const keys = Array.from({ length: 12 }, (_, n) => `test:drain:${n}`);
    const outcomes = keys.map((key, n) => services.notifier.enqueue({ mail: mail(n), about: `mail ${n}` }, { once: key }).outcome);

    await stopServices(services);
    const results = await Promise.all(outcomes);
    const reopened = createStoreFromConfig(services.config);
    await reopened.refresh();
    const sentTo = new Set(driver.sent.map((each) => each.to));
    for (const [n, key] of keys.entries()) {
      const rows = reopened.sendClaims.by("key", key).map((claim) => claim.outcome);
      const wasSent = sentTo.has(`agent${n}@example.com`);
      expect(results[n]).toBe(wasSent ? "sent" : "stopped");
      // Sent: its claim only. Not sent: claimed (or not claimed at all) and marked failed, and a log line names it.
      if (wasSent) expect(rows).toEqual(["claimed"]);
      else {
        expect(rows.filter((row) => row === "failed").length + (rows.length === 0 ? 1 : 0)).toBe(1);
        expect(errors).toHaveBeenCalledWith(expect.stringContaining(`Mail: mail ${n} was not sent: the app stopped`));
      }
    }
    expect(results.filter((result) => result === "sent").length).toBeGreaterThan(0);
    expect(results.filter((result) => result === "stopped").length).toBeGreaterThan(0);
    await reopened.stop();
  });
});
