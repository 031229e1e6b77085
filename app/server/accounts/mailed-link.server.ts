import type { AppLoadContext } from "@remix-run/node";
import { mailedLinkSchema } from "~/domain/auth";
import { parseForm, rejectSubmission } from "../forms.server";
import type { Services } from "../services.server";
import { refuseTooMany, throttle } from "./throttle.server";

type LinkMailer = (services: Pick<Services, "config" | "store" | "notifier">, email: string, request: Request) => void;

/**
 * The action of a form that mails a link to the address typed (a password reset, a one-time
 * login). The answer is the same whether or not an account uses the address, and comes before
 * the mail is sent (it is queued), so the form cannot be used to find out who is a member; the
 * forms share one limit per address and per e-mail, so together they cannot flood an inbox.
 * `what` names the requests in the limit's message ("password reset requests").
 */
export async function mailLinkToAddressTyped(request: Request, context: AppLoadContext, what: string, mailLink: LinkMailer) {
  const submission = await parseForm(request, mailedLinkSchema);
  if (submission.status !== "success") return rejectSubmission(submission);

  const { email } = submission.value;
  const { limits } = context.services.auth;
  const allowed = throttle(context, limits.resetByIp, limits.resetByEmail, email);
  if (!allowed.allowed) return refuseTooMany(submission, what, allowed.retryAfterSeconds);

  mailLink(context.services, email, request);
  return { sent: email };
}
