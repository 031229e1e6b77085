import type { Submission } from "@conform-to/react";
import { data, type AppLoadContext } from "@remix-run/node";
import { clientIp } from "../auth/client-ip.server";
import { describeWait, hitAll, type RateLimiter, type RateLimitResult } from "../auth/rate-limit.server";

/** Counts one attempt against the client's IP address and the e-mail typed. */
export function throttle(context: AppLoadContext, byIp: RateLimiter, byEmail: RateLimiter, email: string): RateLimitResult {
  return hitAll([
    [byIp, clientIp(context)],
    [byEmail, email],
  ]);
}

/** Status 429 with the message on the page, the input kept (never a password) and Retry-After for clients that read it. */
export function refuseTooMany(submission: Submission<unknown>, what: string, retryAfterSeconds: number, hideFields: string[] = []) {
  const message = `Too many ${what}. Please wait ${describeWait(retryAfterSeconds)} and try again.`;
  return data(submission.reply({ formErrors: [message], hideFields }), {
    status: 429,
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}
