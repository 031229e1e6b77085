/**
 * The kinds of mail a member can turn off. Account mails (approval, rejection, password
 * reset) are not among them: they always go.
 *
 * A member's choice is kept in one Agents column, `mailOff`: the kinds they turned off,
 * comma-separated, so staff read "digest, urgent" in the sheet and a blank cell means
 * every kind is on.
 */
/** The settings page, linked from the dashboard and from every mail a member can turn off. */
export const NOTIFICATION_SETTINGS_PATH = "/settings/notifications";
/** The signed one-click unsubscribe link's page (docs/decisions/0027). */
export const UNSUBSCRIBE_PATH = "/unsubscribe";

export const MAIL_KINDS = ["messages", "responses", "referrals", "reviews", "invitations", "digest", "urgent"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** A member's `mailOff` cell as read (the Agents tab's column is declared with these kinds). */
type MailChoices = { readonly mailOff?: readonly string[] };

export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  messages: "New messages",
  responses: "Responses to my requests",
  referrals: "Referral updates",
  reviews: "Reviews: invitations to write one, and reviews of you once published",
  invitations: "Invitations to respond to a request",
  digest: "Weekly digest of new requests in my market",
  urgent: "Instant mail for new urgent requests in my market",
};

/** What each kind sends and when, shown beside its checkbox on the settings page. */
export const MAIL_KIND_DESCRIPTIONS: Record<MailKind, string> = {
  messages: "Sent at once when a member messages you, still at most one per conversation every 10 minutes.",
  responses: "Sent when a member responds to one of your requests, at most one per request every 10 minutes.",
  referrals: "Sent when a referral you are part of moves to its next step.",
  reviews:
    "Sent once per referral when one you are part of ends, inviting you to review the other agent, and once when the other agent's review of you is published.",
  invitations:
    "Sent when a member invites you to respond to their request, and once more shortly before its Respond by time if you have not answered.",
  digest: "Sent on Monday mornings when there are new requests in your state and specialties.",
  urgent: "Sent at once when a member posts an urgent request in your state (and your specialty, when it names one).",
};

/** The `mailOff` cell once `kind` is turned off too. */
export function withMailOff(agent: MailChoices, kind: MailKind): MailKind[] {
  const off = agent.mailOff ?? [];
  return MAIL_KINDS.filter((each) => each === kind || off.includes(each));
}

export function isMailKind(value: string): value is MailKind {
  return (MAIL_KINDS as readonly string[]).includes(value);
}

/** The Agents row's doubts about its `mailOff` cell: names typed by hand that are no kind of mail, ignored until staff correct them. */
export function mailOffDoubts(mailOff: readonly string[] | undefined): string[] {
  return (mailOff ?? [])
    .filter((name) => !isMailKind(name))
    .map((name) => `mailOff "${name}" is not a kind of mail (${MAIL_KINDS.join(", ")})`);
}

/** True unless the member turned this kind of mail off. */
export function wantsMail(agent: MailChoices, kind: MailKind): boolean {
  return !(agent.mailOff ?? []).includes(kind);
}
