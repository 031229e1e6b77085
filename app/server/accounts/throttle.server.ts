import type { Submission } from "@conform-to/react";
import { data, type AppLoadContext, type HeadersFunction } from "@remix-run/node";
import { clientIp } from "../auth/client-ip.server";
import { describeWait, hitAll, type RateLimiter, type RateLimitResult } from "../auth/rate-limit.server";

/** Counts one attempt against the client's IP address and the e-mail typed. */
export function throttle(context: AppLoadContext, byIp: RateLimiter, byEmail: RateLimiter, email: string): RateLimitResult {
  return hitAll([
    [byIp, clientIp(context)],
    [byEmail, email],
  ]);
}

/** One login's key for the per e-mail and address count. */
function loginKey(context: AppLoadContext, email: string): string {
  return `${email.trim().toLowerCase()}\n${clientIp(context)}`;
}

/**
 * Counts a password check as it starts, against the client's address and against this
 * e-mail from this address, so parallel guesses cannot all slip under the limits. Only
 * failures stay counted: call loginSucceeded() when the password was right. Guesses from
 * other addresses never lock the owner out of their account.
 */
export function startLoginAttempt(context: AppLoadContext, email: string): RateLimitResult {
  const { limits } = context.services.auth;
  return hitAll([
    [limits.loginByIp, clientIp(context)],
    [limits.loginByEmailAndIp, loginKey(context, email)],
  ]);
}

/** A right password: the attempt no longer counts, and the e-mail's failures from this address are forgiven. */
export function loginSucceeded(context: AppLoadContext, email: string): void {
  const { limits } = context.services.auth;
  limits.loginByIp.release(clientIp(context));
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
