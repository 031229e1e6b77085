import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BOT_REFUSAL_MESSAGE, BOT_TRAP_FIELDS } from "../../app/domain/bot-trap";
import { action as contactAction, loader as contactLoader } from "../../app/routes/contact";
import { action as registerAction, loader as registerLoader } from "../../app/routes/register";
import { postForm, sentMails, testContext } from "../support/services";

/**
 * The anonymous forms' bot trap with its real minimum fill time (the test configuration
 * turns the time off for the other tests, which post at once): a filled honeypot, a form
 * sent faster than a person fills it, or one with no or a forged start time is refused
 * with a neutral 400, the input kept, and nothing stored or mailed.
 */

const MIN_FILL_SECONDS = 3;

function trappedContext(): AppLoadContext {
  return testContext({}, { FORM_MIN_FILL_SECONDS: String(MIN_FILL_SECONDS) });
}

const message = { name: "Dana Reyes", email: "dana@example.com", category: "general", subject: "Hello", message: "A question" };
const details = { fullName: "Dana Reyes", email: "dana@example.com", phone: "(214) 555-0100", state: "TX", city: "Dallas" };

type Reply = { init: ResponseInit | null; data: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } };

/** The start time the page's form carries, as its loader gives it. */
async function startedAt(context: AppLoadContext, page: "contact" | "register"): Promise<string> {
  const loaded =
    page === "contact"
      ? contactLoader({ request: new Request("http://localhost/contact"), context, params: {} })
      : await registerLoader({ request: new Request("http://localhost/register"), context, params: {} });
  // The register page answers 400, its data wrapped, only for an invitation link that is not genuine.
  return "data" in loaded ? loaded.data.botTrap : loaded.botTrap;
}

/** Moves the clock on, as a person filling the form would. */
function fillFor(seconds: number): void {
  vi.useFakeTimers({ now: Date.now() + seconds * 1000, toFake: ["Date"] });
}

afterEach(() => {
  vi.useRealTimers();
});

async function postContact(context: AppLoadContext, fields: Record<string, string>): Promise<unknown> {
  return contactAction({ request: postForm("/contact", fields), context, params: {} });
}

async function postRegister(context: AppLoadContext, fields: Record<string, string>): Promise<unknown> {
  return registerAction({ request: postForm("/register", fields), context, params: {} });
}

function expectRefusedAsBot(result: unknown, kept: Record<string, string>): void {
  expect(result).not.toBeInstanceOf(Response);
  const reply = result as Reply;
  expect(reply.init?.status).toBe(400);
  expect(reply.data.error?.[""]).toEqual([BOT_REFUSAL_MESSAGE]);
  expect(reply.data.initialValue).toMatchObject(kept);
}

describe("the contact form's bot trap", () => {
  it("refuses a filled honeypot, even after a person's time, and stores and mails nothing", async () => {
    const context = trappedContext();
    const stamp = await startedAt(context, "contact");
    fillFor(MIN_FILL_SECONDS + 5);
    expectRefusedAsBot(
      await postContact(context, { ...message, [BOT_TRAP_FIELDS.honeypot]: "http://spam.example", [BOT_TRAP_FIELDS.startedAt]: stamp }),
      { subject: "Hello" },
    );
    expect(context.services.store.contact.all()).toEqual([]);
    await context.services.notifier.idle();
    expect(await sentMails(context.services)).toEqual([]);
  });

  it("refuses a form sent faster than a person fills it, or with no or a forged start time", async () => {
    const context = trappedContext();
    const stamp = await startedAt(context, "contact");
    fillFor(MIN_FILL_SECONDS - 1);
    expectRefusedAsBot(await postContact(context, { ...message, [BOT_TRAP_FIELDS.startedAt]: stamp }), { name: "Dana Reyes" });
    fillFor(MIN_FILL_SECONDS + 5);
    expectRefusedAsBot(await postContact(context, message), { name: "Dana Reyes" });
    const [, signature] = stamp.split(".");
    const forged = `${Date.now() - 60_000}.${signature}`;
    expectRefusedAsBot(await postContact(context, { ...message, [BOT_TRAP_FIELDS.startedAt]: forged }), { name: "Dana Reyes" });
    expect(context.services.store.contact.all()).toEqual([]);
  });

  it("takes a person's message, honeypot empty, sent after the minimum time", async () => {
    const context = trappedContext();
    const stamp = await startedAt(context, "contact");
    fillFor(MIN_FILL_SECONDS + 1);
    const result = await postContact(context, { ...message, [BOT_TRAP_FIELDS.honeypot]: "", [BOT_TRAP_FIELDS.startedAt]: stamp });
    expect((result as Response).headers.get("Location")).toBe("/contact/sent");
    expect(context.services.store.contact.all()).toHaveLength(1);
  });
});

describe("the registration's bot trap, on its first screen (the draft every later screen needs)", () => {
  it("refuses a filled honeypot or a too-fast form: no draft cookie, no way on to the screen that creates the row", async () => {
    const context = trappedContext();
    const stamp = await startedAt(context, "register");
    fillFor(MIN_FILL_SECONDS + 5);
    const honeypot = await postRegister(context, { ...details, [BOT_TRAP_FIELDS.honeypot]: "x", [BOT_TRAP_FIELDS.startedAt]: stamp });
    expectRefusedAsBot(honeypot, { fullName: "Dana Reyes" });

    const fresh = await startedAt(context, "register");
    const tooFast = await postRegister(context, { ...details, [BOT_TRAP_FIELDS.startedAt]: fresh });
    expectRefusedAsBot(tooFast, { email: "dana@example.com" });
    expect(context.services.store.agents.all()).toEqual([]);
  });

  it("goes on to the next screen for a person", async () => {
    const context = trappedContext();
    const stamp = await startedAt(context, "register");
    fillFor(MIN_FILL_SECONDS + 1);
    let result: unknown;
    try {
      result = await postRegister(context, { ...details, [BOT_TRAP_FIELDS.startedAt]: stamp });
    } catch (thrown) {
      result = thrown;
    }
    expect((result as Response).headers.get("Location")).toBe("/payment");
  });
});
