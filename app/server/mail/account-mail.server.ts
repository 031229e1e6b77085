import { PRODUCT_NAME } from "~/domain/product";
import type { Agent } from "~/domain/workbook/tabs";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

/* Account mails. None carries a password: members choose theirs and reset it through a link. */

function greeting(agent: Pick<Agent, "fullName">): string {
  const firstName = agent.fullName.trim().split(/\s+/)[0];
  return firstName ? `Hello ${firstName},` : "Hello,";
}

export function approvalMail(agent: Pick<Agent, "fullName" | "email">, loginUrl: string): Mail {
  const body = renderMailBody(
    `${greeting(agent)} your license has been verified and your ${PRODUCT_NAME} account is approved. You can log in now.`,
    [
      ["Log in at", loginUrl],
      ["Email", agent.email],
      ["Password", "the one you chose when you registered"],
    ],
    `Forgot it? Use "Forgot password" on the login page to choose a new one. Welcome to the network!`,
  );
  return { to: agent.email, subject: `Your ${PRODUCT_NAME} account is approved`, ...body };
}

export function rejectionMail(agent: Pick<Agent, "fullName" | "email" | "statusNote">, supportEmail: string, contactUrl: string): Mail {
  const body = renderMailBody(
    `${greeting(agent)} we could not approve your ${PRODUCT_NAME} account application.`,
    [
      ["Reason", agent.statusNote.trim() || "No reason was given."],
      ["Questions", `Reply to this email, write to ${supportEmail}, or use the contact form at ${contactUrl}`],
    ],
    "If your license details have changed or were entered incorrectly, contact support and we will review your application again.",
  );
  return { to: agent.email, replyTo: supportEmail, subject: `Your ${PRODUCT_NAME} account application`, ...body };
}

export function passwordResetMail(agent: Pick<Agent, "fullName" | "email">, resetUrl: string, validMinutes: number): Mail {
  const body = renderMailBody(
    `${greeting(agent)} we received a request to reset the password of your ${PRODUCT_NAME} account.`,
    [
      ["Choose a new password at", resetUrl],
      ["The link works", `once, for ${validMinutes} minutes`],
    ],
    "If you did not ask for this, ignore this email: your password stays as it is.",
  );
  return { to: agent.email, subject: `Reset your ${PRODUCT_NAME} password`, ...body };
}

/** A one-time login link (docs/decisions/0057): asked for on the login page while strangers' guesses hold the account. */
export function loginLinkMail(agent: Pick<Agent, "fullName" | "email">, loginUrl: string, validMinutes: number): Mail {
  const body = renderMailBody(
    `${greeting(agent)} we received a request for a one-time login link to your ${PRODUCT_NAME} account.`,
    [
      ["Log in at", loginUrl],
      ["The link works", `once, for ${validMinutes} minutes`],
    ],
    'If you did not ask for this, ignore this email and do not share the link. If someone else is trying to log in to your account, choose a new password with "Forgot password" on the login page.',
  );
  return { to: agent.email, subject: `Your ${PRODUCT_NAME} login link`, ...body };
}

export type PasswordResetNotice = { email: string; accountFound: boolean; requestedAt: Date };

/** The "Password Reset Request" notice to staff; it tells them the member can reset on their own. */
export function passwordResetStaffNotice(request: PasswordResetNotice, supportEmail: string): Mail {
  const body = renderMailBody(`A password reset was requested on ${PRODUCT_NAME}.`, [
    ["Name", "Password Reset Request"],
    ["Email", request.email],
    ["Category", "Password Reset"],
    ["Subject", "Password Reset Request"],
    [
      "Message",
      request.accountFound
        ? "A reset link valid for one hour was emailed to the member. No action is needed unless they contact support."
        : "No account uses this email address, so no reset link was sent.",
    ],
    ["Received", request.requestedAt.toISOString()],
  ]);
  return { to: supportEmail, replyTo: request.email, subject: "[Password Reset] Password Reset Request", ...body };
}
