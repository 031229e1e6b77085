import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { action as loginAction } from "../../app/routes/member-login";
import { action as resetAction } from "../../app/routes/reset-password";
import { createResetToken, resetTokenCookie } from "../../app/server/auth/reset-token.server";
import type { ActionReply } from "../integration/accounts-support";
import { insertAgent, testContext } from "../support/services";

/**
 * Guessing one account's password from many addresses: the account's own limit slows it,
 * and neither a stranger's guesses nor the limit keep the owner out of their account.
 */

// Every attempt below is a real bcrypt check (at the test cost, decision 0040).
vi.setConfig({ testTimeout: 90_000 });

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "river crossing 2025";
const ACCOUNT_LIMIT = 10;
const ACCOUNT_REFUSAL = "Too many login attempts for this email address. Please wait 15 minutes and try again.";

type Attempt = { status: number; message: string | undefined; cookies: string; location: string | null };

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
  const reply = result as ActionReply;
  return { status: reply.init?.status ?? 200, message: reply.data.error?.[""]?.[0], cookies: "", location: null };
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
