/**
 * The account pages' own words (docs/product.md#forms-and-wording): why an e-mail cannot register again,
 * the dead reset link, the membership names. Apart from the form schemas (registration.ts,
 * auth.ts) because the pages show them: a module the browser loads builds no zod schema.
 */
import type { AgentStatus, MembershipType } from "./workbook/tabs";

export const EMAIL_TAKEN_MESSAGE = "An account with this email already exists. Please log in instead.";
const APPLICATION_UNDER_REVIEW_MESSAGE =
  "Your application with this email is already under review. Please check your email for approval updates, or contact support if you need help.";
export const APPLICATION_NOT_APPROVED_MESSAGE = "Your account application was not approved. Please contact support for more information.";

/**
 * Why an e-mail cannot register again. An approved member is sent to log in; an applicant
 * cannot log in yet (or at all), so they are told where their application stands and to
 * contact support.
 */
export function emailTakenMessage(status: AgentStatus): string {
  if (status === "pending") return APPLICATION_UNDER_REVIEW_MESSAGE;
  if (status === "rejected") return APPLICATION_NOT_APPROVED_MESSAGE;
  return EMAIL_TAKEN_MESSAGE;
}

/** Which help a refused registration shows beside its message: the login page, or support. */
export function emailTakenHelp(errors: readonly string[] | undefined): "login" | "support" | null {
  if (errors?.includes(EMAIL_TAKEN_MESSAGE)) return "login";
  if (errors?.some((error) => error === APPLICATION_UNDER_REVIEW_MESSAGE || error === APPLICATION_NOT_APPROVED_MESSAGE)) return "support";
  return null;
}

/** A one-time login link that cannot be used (docs/decisions/0057). */
export const LOGIN_LINK_INVALID_MESSAGE = "This login link is invalid, has expired or was already used. Please request a new one.";

export const RESET_LINK_INVALID_MESSAGE = "This password reset link is invalid, has expired or was already used. Please request a new one.";

export const MEMBERSHIP_LABELS: Record<MembershipType, string> = {
  founder: "Founding Member",
  vip: "VIP Member",
  member: "Member",
};
