/**
 * The kinds of mail a member can turn off. Account mails (approval, rejection, password
 * reset) are not among them: they always go.
 *
 * A member's choice is kept in one Agents column, `mailOff`: the kinds they turned off,
 * comma-separated, so staff read "digest, urgent" in the sheet and a blank cell means
 * every kind is on.
 */
import type { Agent } from "./workbook/tabs";

export const MAIL_KINDS = ["messages", "responses", "referrals", "digest", "urgent"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  messages: "New messages",
  responses: "Responses to my requests",
  referrals: "Referral updates",
  digest: "Weekly digest of new requests in my market",
  urgent: "Instant mail for new urgent requests in my market",
};

export function isMailKind(value: string): value is MailKind {
  return (MAIL_KINDS as readonly string[]).includes(value);
}

/** True unless the member turned this kind of mail off. */
export function wantsMail(agent: Pick<Agent, "mailOff">, kind: MailKind): boolean {
  return !(agent.mailOff ?? []).includes(kind);
}
