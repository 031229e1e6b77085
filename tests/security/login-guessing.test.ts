import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { action as loginAction } from "../../app/routes/member-login";
import { action as resetAction } from "../../app/routes/reset-password";
import { createResetToken, resetTokenCookie } from "../../app/server/auth/reset-token.server";
import { LOGIN_LINK_INVALID_MESSAGE } from "../../app/domain/account-messages";
import { action as loginLinkAction } from "../../app/routes/login-link";
import { action as oneTimeLoginAction, loader as oneTimeLoginLoader } from "../../app/routes/one-time-login";
import { getMember } from "../../app/server/auth/session.server";
import { cookieFrom, getWithCookie, responseOf, type ActionReply } from "../integration/accounts-support";
import { insertAgent, postForm, sentMails, testContext } from "../support/services";

/**
 * Guessing one account's password from many addresses: the account's own limit slows it,
 * and neither a stranger's guesses nor the limit keep the owner out of their account.
 */

// Every attempt below is a real bcrypt check (at the test cost, decision 0040).
vi.setConfig({ testTimeout: 90_000 });

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "river crossing 2025";
const ACCOUNT_LIMIT = 10;
const ACCOUNT_REFUSAL =
  "Too many login attempts for this email address. Please wait 15 minutes and try again. Or we can email you a one-time login link.";

type Attempt = { status: number; message: string | undefined; cookies: string; location: string | null; loginLinkFor?: string };

/** One login post from `ip`, sending `cookie` as the browser would. */
async function logIn(context: AppLoadContext, ip: string, email: string, password: string, cookie = ""): Promise<Attempt> {
  const request = new Request("http://localhost/member-login", {
    method: "POST",
    headers: cookie ? { Cookie: cookie } : {},
    body: new URLSearchParams({ email, password }),
  });
  let result: unknown;
  try {
    result = await loginAction({ request, context: { ...context, clientIp: ip }, params: {} });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    const cookies = result.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
    return { status: result.status, message: undefined, cookies, location: result.headers.get("Location") };
  }
  const reply = result as ActionReply & { data: { loginLinkFor?: string } };
  return {
    status: reply.init?.status ?? 200,
    message: reply.data.error?.[""]?.[0],
    cookies: "",
    location: null,
    loginLinkFor: reply.data.loginLinkFor,
  };
}

/** The same address as people type it: other cases, spaces around it. */
function variantOf(email: string, index: number): string {
  const variants = [email, email.toUpperCase(), `  ${email} `, email.charAt(0).toUpperCase() + email.slice(1)];
  return variants[index % variants.length]!;
}

/** Wrong passwords for the account, each from its own address, until the account's limit is full. */
async function guessFromManyAddresses(context: AppLoadContext, agent: Agent, network: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let guess = 0; guess < ACCOUNT_LIMIT; guess += 1) {
    statuses.push((await logIn(context, `${network}.${guess + 1}`, variantOf(agent.email, guess), `guess ${guess}`)).status);
  }
  return statuses;
}

describe("wrong passwords for one account from many addresses", () => {
  it("are refused past the account's limit, whatever the case or spaces of the e-mail, right password or not", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    expect(await guessFromManyAddresses(context, agent, "203.0.113")).toEqual(Array<number>(ACCOUNT_LIMIT).fill(400));

    const next = await logIn(context, "203.0.113.200", ` ${agent.email.toUpperCase()}`, "guess 11");
    expect(next.status).toBe(429);
    expect(next.message).toBe(ACCOUNT_REFUSAL);
    // A stranger's right guess is refused the same way: the limit tells nothing about the password.
    const rightGuess = await logIn(context, "203.0.113.201", agent.email, PASSWORD);
    expect(rightGuess.status).toBe(429);
    expect(rightGuess.message).toBe(ACCOUNT_REFUSAL);

    // Other accounts are not touched, from any of those addresses.
    const other = await insertAgent(context, { password: PASSWORD });
    expect((await logIn(context, "203.0.113.1", other.email, PASSWORD)).status).toBe(302);
  });
});

describe("the owner, while strangers guess", () => {
  it("still logs in from a browser that logged in to the account before, wherever it is", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const before = await logIn(context, "198.51.100.10", agent.email, PASSWORD);
    expect(before.status).toBe(302);

    await guessFromManyAddresses(context, agent, "203.0.113");
    expect((await logIn(context, "198.51.100.11", agent.email, PASSWORD)).status).toBe(429);
    const ownBrowser = await logIn(context, "198.51.100.11", agent.email, PASSWORD, before.cookies);
    expect(ownBrowser.status).toBe(302);
    expect(ownBrowser.location).toBe("/member-dashboard");
  });

  it("knows that browser whatever the case or spaces of the e-mail typed there, then or now", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const before = await logIn(context, "198.51.100.12", ` ${agent.email.toUpperCase()} `, PASSWORD);
    expect(before.status).toBe(302);

    await guessFromManyAddresses(context, agent, "203.0.113");
    expect((await logIn(context, "198.51.100.13", variantOf(agent.email, 3), PASSWORD)).status).toBe(429);
    const ownBrowser = await logIn(context, "198.51.100.13", variantOf(agent.email, 3), PASSWORD, before.cookies);
    expect(ownBrowser.status).toBe(302);
  });

  it("does not lend that to another account's browser", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const stranger = await insertAgent(context, { password: PASSWORD });
    const strangersBrowser = await logIn(context, "203.0.113.99", stranger.email, PASSWORD);
    expect(strangersBrowser.status).toBe(302);

    await guessFromManyAddresses(context, agent, "203.0.113");
    const withOtherCookie = await logIn(context, "203.0.113.98", agent.email, "guess with a cookie", strangersBrowser.cookies);
    expect(withOtherCookie.status).toBe(429);
    expect(withOtherCookie.message).toBe(ACCOUNT_REFUSAL);
  });

  it("lifts it with a new password set from a reset link", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    await guessFromManyAddresses(context, agent, "203.0.113");
    expect((await logIn(context, "198.51.100.20", agent.email, PASSWORD)).status).toBe(429);

    const token = createResetToken(context.services.config.sessionSecrets, agent);
    const reset = new Request("http://localhost/reset-password", {
      method: "POST",
      headers: { Cookie: (await resetTokenCookie(context.services.config).serialize(token)).split(";")[0]! },
      body: new URLSearchParams({ password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
    });
    let saved: unknown;
    try {
      saved = await resetAction({ request: reset, context: { ...context, clientIp: "198.51.100.20" }, params: {} });
    } catch (thrown) {
      saved = thrown;
    }
    expect((saved as Response).status).toBe(302);
    expect((await logIn(context, "198.51.100.20", agent.email, NEW_PASSWORD)).status).toBe(302);
  });
});

/** The login page's offer, as the browser posts it: the e-mail typed, to /login-link. */
async function askForLoginLink(context: AppLoadContext, ip: string, email: string): Promise<unknown> {
  return loginLinkAction({ request: postForm("/login-link", { email }), context: { ...context, clientIp: ip }, params: {} });
}

async function mailedLoginLink(context: AppLoadContext, email: string): Promise<string> {
  await context.services.notifier.idle();
  const mail = (await sentMails(context.services)).find((candidate) => candidate.to === email);
  const link = mail?.text.match(/http:\/\/localhost\/one-time-login\?token=[\w.-]+/)?.[0];
  if (!link) throw new Error("No login link in the member's mail");
  return link;
}

/** Opens the mailed link: the token moves into a cookie for the bare page. Returns that cookie. */
async function openLoginLink(context: AppLoadContext, link: string): Promise<string> {
  const response = await responseOf(() => oneTimeLoginLoader({ request: new Request(link), context, params: {} }));
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/one-time-login");
  expect(response.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
  return cookieFrom(response);
}

/** Presses "Log In" on the one-time login page with the link's cookie. */
async function useLoginLink(context: AppLoadContext, ip: string, cookie: string): Promise<Attempt> {
  const request = new Request("http://localhost/one-time-login", {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: "",
  });
  const result = await oneTimeLoginAction({ request, context: { ...context, clientIp: ip }, params: {} });
  if (result instanceof Response) {
    const cookies = result.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
    return { status: result.status, message: undefined, cookies, location: result.headers.get("Location") };
  }
  const reply = result as unknown as { init: ResponseInit | null; data: { error: string } };
  return { status: reply.init?.status ?? 200, message: reply.data.error, cookies: "", location: null };
}

describe("the owner on a new browser, while strangers guess", () => {
  it("is offered a one-time login link, which logs them in once and makes that browser theirs", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    await guessFromManyAddresses(context, agent, "203.0.113");

    const held = await logIn(context, "198.51.100.30", agent.email, PASSWORD);
    expect(held.status).toBe(429);
    expect(held.message).toBe(ACCOUNT_REFUSAL);
    expect(held.loginLinkFor).toBe(agent.email);

    expect(await askForLoginLink(context, "198.51.100.30", held.loginLinkFor!)).toEqual({ sent: agent.email, validMinutes: 15 });
    const linkCookie = await openLoginLink(context, await mailedLoginLink(context, agent.email));
    expect(await oneTimeLoginLoader({ request: getWithCookie("/one-time-login", linkCookie), context, params: {} })).toEqual({
      email: agent.email,
    });

    const used = await useLoginLink(context, "198.51.100.30", linkCookie);
    expect(used.status).toBe(302);
    expect(used.location).toBe("/member-dashboard");
    const member = await getMember(getWithCookie("/member-dashboard", used.cookies), context);
    expect(member?.id).toBe(agent.id);

    // Once only: the page no longer offers it, and the same link again, here or anywhere, is refused.
    expect(await oneTimeLoginLoader({ request: getWithCookie("/one-time-login", linkCookie), context, params: {} })).toEqual({
      email: null,
    });
    const again = await useLoginLink(context, "198.51.100.31", linkCookie);
    expect(again.status).toBe(400);
    expect(again.message).toBe(LOGIN_LINK_INVALID_MESSAGE);

    // The browser the link logged in is the owner's now: their password works there while strangers still guess.
    await guessFromManyAddresses(context, agent, "192.0.2");
    const withPassword = await logIn(context, "198.51.100.30", agent.email, PASSWORD, used.cookies);
    expect(withPassword.status).toBe(302);
    expect((await logIn(context, "203.0.113.77", agent.email, PASSWORD)).status).toBe(429);
  });

  it("gets the same answer whether or not an account uses the address, and only the owner is mailed", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const unknown = "nobody-here@example.test";
    for (let guess = 0; guess < ACCOUNT_LIMIT; guess += 1) await logIn(context, `203.0.113.${guess + 1}`, unknown, `guess ${guess}`);
    const held = await logIn(context, "198.51.100.40", unknown, PASSWORD);
    expect(held.status).toBe(429);
    expect(held.message).toBe(ACCOUNT_REFUSAL);
    expect(held.loginLinkFor).toBe(unknown);

    expect(await askForLoginLink(context, "198.51.100.40", unknown)).toEqual({ sent: unknown, validMinutes: 15 });
    expect(await askForLoginLink(context, "198.51.100.41", agent.email)).toEqual({ sent: agent.email, validMinutes: 15 });
    await context.services.notifier.idle();
    expect((await sentMails(context.services)).map((mail) => mail.to)).toEqual([agent.email]);
  });

  it("cannot use a link that expired, was forged, or was made before the password changed", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    await askForLoginLink(context, "198.51.100.50", agent.email);
    const linkCookie = await openLoginLink(context, await mailedLoginLink(context, agent.email));

    const [name, value = ""] = linkCookie.split("=");
    const forged = `${name}=${value.slice(0, -4)}AAAA`;
    expect((await useLoginLink(context, "198.51.100.50", forged)).message).toBe(LOGIN_LINK_INVALID_MESSAGE);

    vi.useFakeTimers({ now: Date.now() + 15 * 60 * 1000 + 1000, toFake: ["Date"] });
    try {
      expect((await useLoginLink(context, "198.51.100.50", linkCookie)).message).toBe(LOGIN_LINK_INVALID_MESSAGE);
    } finally {
      vi.useRealTimers();
    }

    await context.services.store.agents.update(agent.id, { passwordHash: "$2b$04$another.hash.entirely.different.from.before.x" });
    const afterChange = await useLoginLink(context, "198.51.100.50", linkCookie);
    expect(afterChange.status).toBe(400);
    expect(afterChange.message).toBe(LOGIN_LINK_INVALID_MESSAGE);
  });
});
