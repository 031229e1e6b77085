import type { Submission } from "@conform-to/react";
import { data, type AppLoadContext, type HeadersFunction } from "@remix-run/node";
import { clientIp } from "../auth/client-ip.server";
import { isKnownDevice } from "../auth/known-device.server";
import { describeWait, hitAll, type RateLimiter, type RateLimitResult } from "../auth/rate-limit.server";

/** Counts one attempt against the client's IP address and the e-mail typed. */
export function throttle(context: AppLoadContext, byIp: RateLimiter, byEmail: RateLimiter, email: string): RateLimitResult {
  return hitAll([
    [byIp, clientIp(context)],
    [byEmail, email],
  ]);
}

/** One login's key for the per e-mail and address count; the e-mail as the login form's schema gives it, lower-cased. */
function loginKey(context: AppLoadContext, email: string): string {
  return `${email}\n${clientIp(context)}`;
}

/** A login attempt let through, and whether it counts against the account's own limit. */
export type LoginAttempt =
  | { allowed: true; onAccount: boolean }
  /** `accountHeld`: refused by the account's own limit, which a one-time login link gets round (docs/decisions/0057). */
  | { allowed: false; retryAfterSeconds: number; what: string; accountHeld: boolean };

/**
 * Counts a password check as it starts, against the client's address, against this
 * e-mail from this address, and against the account from everywhere, so parallel
 * guesses cannot all slip under the limits. Only failures stay counted: call
 * loginSucceeded() when the password was right. A browser the account logged in on
 * before is not held by the account's limit, so guesses from elsewhere never lock the
 * owner out there (docs/decisions/0030); on a new browser the owner gets in with a
 * one-time login link mailed to them (docs/decisions/0057).
 */
export async function startLoginAttempt(request: Request, context: AppLoadContext, email: string): Promise<LoginAttempt> {
  const { auth, config } = context.services;
  const fromHere = hitAll([
    [auth.limits.loginByIp, clientIp(context)],
    [auth.limits.loginByEmailAndIp, loginKey(context, email)],
  ]);
  if (!fromHere.allowed) return { ...fromHere, what: "login attempts", accountHeld: false };
  if (await isKnownDevice(request, config, email)) return { allowed: true, onAccount: false };
  const onAccount = auth.limits.loginByAccount.hit(email);
  if (!onAccount.allowed) return { ...onAccount, what: "login attempts for this email address", accountHeld: true };
  return { allowed: true, onAccount: true };
}

/** A right password: the attempt no longer counts, and the e-mail's failures from this address are forgiven. */
export function loginSucceeded(context: AppLoadContext, email: string, attempt: { onAccount: boolean }): void {
  const { limits } = context.services.auth;
  limits.loginByIp.release(clientIp(context));
  limits.loginByEmailAndIp.reset(loginKey(context, email));
  if (attempt.onAccount) limits.loginByAccount.release(email);
}

/** A new password set from a reset link: the guessing before it is over, and so are its limits. */
export function forgetLoginFailures(context: AppLoadContext, email: string): void {
  const { limits } = context.services.auth;
  limits.loginByAccount.reset(email);
  limits.loginByEmailAndIp.reset(loginKey(context, email));
}

/** "Too many messages. Please wait 5 minutes and try again." */
export function tooManyMessage(what: string, retryAfterSeconds: number): string {
  return `Too many ${what}. Please wait ${describeWait(retryAfterSeconds)} and try again.`;
}

/** Status 429 and Retry-After, for clients that read it. */
export function tooManyInit(retryAfterSeconds: number): ResponseInit {
  return { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } };
}

/**
 * A form route's `headers`: a page rendered for a refused post keeps the action's
 * Retry-After (a route without `headers` would drop it).
 */
export function passRetryAfter({ actionHeaders, parentHeaders }: Parameters<HeadersFunction>[0]): Headers {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

/** Status 429 with the message on the page, the input kept (never a password) and Retry-After for clients that read it. */
export function refuseTooMany(submission: Submission<unknown>, what: string, retryAfterSeconds: number, hideFields: string[] = []) {
  return data(submission.reply({ formErrors: [tooManyMessage(what, retryAfterSeconds)], hideFields }), tooManyInit(retryAfterSeconds));
}

/**
 * The account's own limit is full: 429 as for any limit, and the page offers a one-time
 * login link to the address typed, which only its owner receives (docs/decisions/0057).
 * The answer is the same whether or not an account uses the address: the limit counts
 * every e-mail typed.
 */
export function refuseHeldAccount(submission: Submission<unknown>, email: string, retryAfterSeconds: number, hideFields: string[]) {
  const message = `${tooManyMessage("login attempts for this email address", retryAfterSeconds)} ${HELD_ACCOUNT_OFFER}`;
  return data({ ...submission.reply({ formErrors: [message], hideFields }), loginLinkFor: email }, tooManyInit(retryAfterSeconds));
}

const HELD_ACCOUNT_OFFER = "Or we can email you a one-time login link.";
