/**
 * Every key of the SendClaims tab (docs/decisions/0029, 0032): what it records, which part of
 * the app claims it, and the one function that builds it. Every claim in the app builds its key
 * here, so this list is the whole of them: the staff guide's table of keys is generated from
 * it (`npm run docs:claim-keys`), `npm run staff -- mail-log` reads claims by it, and
 * tests/unit/claim-keys.test.ts fails on a key built anywhere else.
 */

type ClaimKeyFamily = {
  /** The key as the staff guide writes it, `<...>` for the parts that vary. */
  readonly format: string;
  /** What a row of this key records. */
  readonly records: string;
  /** The file under app/ that claims it, which must build it with `key` (the test checks). */
  readonly claimedIn: string;
  /** A mail claimed once, a mail of a throttled chain (`#<n>` links), a job's run, or a row added once. */
  readonly holds: "mail" | "chain" | "run" | "row";
  readonly key: (...parts: string[]) => string;
};

const family = <Parts extends string[]>(entry: Omit<ClaimKeyFamily, "key"> & { key: (...parts: Parts) => string }) => entry;

/** Every family of keys, by the word before its first colon. */
export const CLAIM_KEYS = {
  "sheet-problem": family({
    format: "sheet-problem:<hash>",
    records: "the mail to staff about a problem in the workbook",
    claimedIn: "server/jobs/sheet-problem-mails.server.ts",
    holds: "mail",
    key: (hash: string) => `sheet-problem:${hash}`,
  }),
  decision: family({
    format: "decision:<agent id>:approved (or :rejected)",
    records: "the mail telling an applicant of staff's decision",
    claimedIn: "server/jobs/decision-mails.server.ts",
    holds: "mail",
    key: (agentId: string, decision: string) => `decision:${agentId}:${decision}`,
  }),
  "digest-run": family({
    format: "digest-run:<Monday's date>#<n>",
    records: "a run of the week's digest started (`#1`, `#2`, ... a run that took over from one that stopped)",
    claimedIn: "server/jobs/weekly-digest.server.ts",
    holds: "run",
    key: (week: string) => `digest-run:${week}`,
  }),
  "digest-done": family({
    format: "digest-done:<Monday's date>",
    records: "every member's digest of the week went out",
    claimedIn: "server/jobs/weekly-digest.server.ts",
    holds: "run",
    key: (week: string) => `digest-done:${week}`,
  }),
  "growth-summary": family({
    format: "growth-summary:<Monday's date>",
    records: "staff's weekly mail counting invitations to join sent, registrations from them and approvals",
    claimedIn: "server/jobs/weekly-digest.server.ts",
    holds: "mail",
    key: (week: string) => `growth-summary:${week}`,
  }),
  digest: family({
    format: "digest:<Monday's date>:<agent id>",
    records: "one member's weekly digest",
    claimedIn: "server/jobs/weekly-digest.server.ts",
    holds: "mail",
    key: (week: string, agentId: string) => `digest:${week}:${agentId}`,
  }),
  prune: family({
    format: "prune:<date>",
    records: "the day's clearing of old rows of this tab",
    claimedIn: "server/jobs/send-claims-pruning.server.ts",
    holds: "run",
    key: (day: string) => `prune:${day}`,
  }),
  message: family({
    format: "message:<conversation id>/<e-mail>#<n>",
    records:
      "a notification of new messages (or, as `message:referrals:<conversation id>:<change>/<e-mail>#<n>`, of a referral proposal's changes) to that member",
    claimedIn: "server/messages/conversation-members.server.ts",
    holds: "chain",
    key: (conversationMember: string) => `message:${conversationMember}`,
  }),
  response: family({
    format: "response:<request id>#<n>",
    records: "a notification to the poster of new responses to their request",
    claimedIn: "server/referral-requests/respond.server.ts",
    holds: "chain",
    key: (requestId: string) => `response:${requestId}`,
  }),
  "referral-expired": family({
    format: "referral-expired:<referral id>",
    records: "the mails telling both parties their referral expired",
    claimedIn: "server/jobs/referral-reminders.server.ts",
    holds: "mail",
    key: (referralId: string) => `referral-expired:${referralId}`,
  }),
  "referral-reminder": family({
    format: "referral-reminder:<referral id>:after:<time of the reminder before>",
    records: "a reminder to the parties of a quiet referral or of a term about to end",
    claimedIn: "server/jobs/referral-reminders.server.ts",
    holds: "mail",
    key: (referralId: string, lastReminderAt: string) => `referral-reminder:${referralId}:after:${lastReminderAt}`,
  }),
  registration: family({
    format: "registration:<agent id>",
    records: "the welcome mail and the staff notice of a registration",
    claimedIn: "server/registration/create-agent.server.ts",
    holds: "mail",
    key: (agentId: string) => `registration:${agentId}`,
  }),
  urgent: family({
    format: "urgent:<request id>",
    records: "an urgent request's mails to the members it concerns",
    claimedIn: "server/referral-requests/urgent-mail.server.ts",
    holds: "mail",
    key: (requestId: string) => `urgent:${requestId}`,
  }),
  contact: family({
    format: "contact:<Contact row id>",
    records: "a contact-form message's mail to support",
    claimedIn: "routes/contact.tsx",
    holds: "mail",
    key: (contactId: string) => `contact:${contactId}`,
  }),
  "review-invite": family({
    format: "review-invite:<referral id>/<e-mail>",
    records: "the invitation to review the other party of an ended referral",
    claimedIn: "server/reviews/invitations.server.ts",
    holds: "mail",
    key: (referralId: string, email: string) => `review-invite:${referralId}/${email}`,
  }),
  "review-published": family({
    format: "review-published:<Reviews row id>",
    records: "the notice to the reviewed member that the review is published",
    claimedIn: "server/jobs/review-publications.server.ts",
    holds: "mail",
    key: (reviewId: string) => `review-published:${reviewId}`,
  }),
  "license-refused": family({
    format: "license-refused:<referral id>:<step>",
    records: "the mails telling both parties a license stopped `sign`, `under_contract` or `closed`",
    claimedIn: "server/referrals/license-recheck.server.ts",
    holds: "mail",
    key: (referralId: string, step: string) => `license-refused:${referralId}:${step}`,
  }),
  "invitation-mail": family({
    format: "invitation-mail:<Invitations row id>",
    records: "the mail inviting an agent to respond to a request",
    claimedIn: "server/invitations/invitations.server.ts",
    holds: "mail",
    key: (invitationId: string) => `invitation-mail:${invitationId}`,
  }),
  "invitation-reminder": family({
    format: "invitation-reminder:<Invitations row id>",
    records: "an invitation's one reminder before Respond by",
    claimedIn: "server/jobs/invitation-reminders.server.ts",
    holds: "mail",
    key: (invitationId: string) => `invitation-reminder:${invitationId}`,
  }),
  cda: family({
    format: "cda:<referral id>:<version>",
    records: "the commission disbursement authorization's mails (the version is a hash of its text)",
    claimedIn: "server/referrals/cda.server.ts",
    holds: "mail",
    key: (referralId: string, version: string) => `cda:${referralId}:${version}`,
  }),
  "broker-approval": family({
    format: "broker-approval:<sign-off row id>",
    records: "the mail asking a broker to approve a referral agreement",
    claimedIn: "server/referrals/broker-signoff.server.ts",
    holds: "mail",
    key: (signOffId: string) => `broker-approval:${signOffId}`,
  }),
  "broker-link-ended": family({
    format: "broker-link-ended:<sign-off row id>",
    records: "the mail to the agent that a broker's approval link was ended after wrong license numbers",
    claimedIn: "server/referrals/broker-signoff.server.ts",
    holds: "mail",
    key: (signOffId: string) => `broker-link-ended:${signOffId}`,
  }),
  "broker-approved": family({
    format: "broker-approved:<referral id>:<side>:<text hash>:<e-mail>",
    records: "the mail to an agent that a broker approved the agreement",
    claimedIn: "server/referrals/broker-signoff.server.ts",
    holds: "mail",
    key: (referralId: string, side: string, agreementHash: string, email: string) =>
      `broker-approved:${referralId}:${side}:${agreementHash}:${email}`,
  }),
  "broker-copy": family({
    format: "broker-copy:<referral id>:<side>",
    records: "a broker's copy of the agreement in force",
    claimedIn: "server/referrals/broker-signoff.server.ts",
    holds: "mail",
    key: (referralId: string, side: string) => `broker-copy:${referralId}:${side}`,
  }),
  "broker-requests-paused": family({
    format: "broker-requests-paused:<hour number>",
    records: "the staff mail that Oklahoma broker requests are paused",
    claimedIn: "server/brokers/broker-link.server.ts",
    holds: "mail",
    key: (hour: string) => `broker-requests-paused:${hour}`,
  }),
  "licenses-not-loaded": family({
    format: "licenses-not-loaded",
    records: "the staff mail that no TREC license data is loaded (once per install)",
    claimedIn: "server/licenses/licenses.server.ts",
    holds: "mail",
    key: () => "licenses-not-loaded",
  }),
  "login-link": family({
    format: "login-link:<link id>",
    records: "a one-time login link a member used: it works once",
    claimedIn: "server/accounts/login-link.server.ts",
    holds: "row",
    key: (linkId: string) => `login-link:${linkId}`,
  }),
  "agent-email": family({
    format: "agent-email:<e-mail>",
    records: "the registration that got that e-mail (its `id` the agent's id)",
    claimedIn: "server/registration/create-agent.server.ts",
    holds: "row",
    key: (email: string) => `agent-email:${email}`,
  }),
  mark: family({
    format: "mark:<e-mail>/<request id>/<kind>",
    records: "a member's mark on a request (its `id` the `Marks` row's)",
    claimedIn: "server/referral-requests/interested-and-saved.server.ts",
    holds: "row",
    key: (email: string, requestId: string, kind: string) => `mark:${email}/${requestId}/${kind}`,
  }),
  review: family({
    format: "review:<referral id>/<e-mail>",
    records: "that member's review of that referral (its `id` the `Reviews` row's)",
    claimedIn: "server/reviews/reviews.server.ts",
    holds: "row",
    key: (referralId: string, email: string) => `review:${referralId}/${email}`,
  }),
  invitation: family({
    format: "invitation:<request id>/<e-mail>",
    records: "that agent's invitation to that request (its `id` the `Invitations` row's)",
    claimedIn: "server/invitations/invitations.server.ts",
    holds: "row",
    key: (requestId: string, email: string) => `invitation:${requestId}/${email}`,
  }),
  "reply-mail": family({
    format: "reply-mail:<digest of the Message-ID>",
    records: "a reply by mail taken in once, whichever instance SendGrid posted it to (docs/decisions/0071)",
    claimedIn: "server/messages/reply-by-mail.server.ts",
    holds: "row",
    key: (messageIdDigest: string) => `reply-mail:${messageIdDigest}`,
  }),
  "reply-refused": family({
    format: "reply-refused:<e-mail>:<hour number>",
    records: "the one mail an hour telling a member why their reply by mail was not stored",
    claimedIn: "server/messages/reply-by-mail.server.ts",
    holds: "mail",
    key: (email: string, hour: string) => `reply-refused:${email}:${hour}`,
  }),
  suppression: family({
    format: "suppression:<e-mail>",
    records: "the address's row in `Suppressions` (its `id` the row's), added once whichever instance is asked",
    claimedIn: "server/outreach/suppression.server.ts",
    holds: "row",
    key: (email: string) => `suppression:${email}`,
  }),
  mirror: family({
    format: "mirror:<start of the 5 minutes>",
    records: "a rewrite of the mirror tabs (Lookup, Recent reports, Daily counts), by one instance",
    claimedIn: "server/mirrors/mirrors.server.ts",
    holds: "run",
    key: (period: string) => `mirror:${period}`,
  }),
  "mirror-lookup": family({
    format: "mirror-lookup:<minute>:<hash of the look-up>",
    records: "the Lookup tab's answer to a look-up staff typed, by one instance",
    claimedIn: "server/mirrors/mirrors.server.ts",
    holds: "run",
    key: (minute: string, lookup: string) => `mirror-lookup:${minute}:${lookup}`,
  }),
  outreach: family({
    format: "outreach:<e-mail>#<n>",
    records: "an invitation to join the network mailed to that address: one a month, whoever sends it (docs/decisions/0082)",
    claimedIn: "server/outreach/outreach.server.ts",
    holds: "chain",
    key: (email: string) => `outreach:${email}`,
  }),
  "outreach-reminder": family({
    format: "outreach-reminder:<Outreach row id>",
    records: "the inviting member's one reminder of an invitation to join",
    claimedIn: "server/outreach/outreach.server.ts",
    holds: "mail",
    key: (outreachId: string) => `outreach-reminder:${outreachId}`,
  }),
  "outreach-approved": family({
    format: "outreach-approved:<Outreach row id>",
    records: "an agent who joined through a request's invitation, once approved, invited to that request, and its poster told",
    claimedIn: "server/outreach/outreach-approvals.server.ts",
    holds: "mail",
    key: (outreachId: string) => `outreach-approved:${outreachId}`,
  }),
} as const;

export type ClaimKeyFamilyName = keyof typeof CLAIM_KEYS;

/** The family of a stored key, by the word before its first colon (or `#`); undefined for a key the app does not make (staff's). */
export function claimKeyFamily(key: string): ClaimKeyFamilyName | undefined {
  const word = /^[^:#]+/.exec(key)?.[0] ?? "";
  return Object.hasOwn(CLAIM_KEYS, word) ? (word as ClaimKeyFamilyName) : undefined;
}
