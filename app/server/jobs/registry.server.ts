/**
 * Every background job, in one list: its name (the log's), what runs it, what it sends and the
 * SendClaims keys it claims. A job's name and the tabs it watches are taken from here by the
 * job itself (`refreshJob`), so this list is what runs; tests/unit/job-registry.test.ts fails
 * on a job added to the store without an entry, and the staff guide's table of claim keys
 * (`npm run docs:claim-keys`) names the job behind each key from here.
 *
 * A mail's path, then: a change in the store → the refresh that reads it → the jobs whose
 * `watches` name that tab (every job also runs after each timed refresh) → the job's file
 * (`definedIn`) → the notifier → the claim under one of `claims` (app/domain/claim-keys.ts).
 */
import type { ClaimKeyFamilyName } from "~/domain/claim-keys";
import type { RefreshJob } from "../store/store.server";

type JobEntry = {
  /** Names the job in the log. */
  readonly name: string;
  /** The tabs whose changes run it at once (and the columns it reads old and new values of); every job also runs after each timed refresh. */
  readonly watches?: RefreshJob["watches"];
  /** When it runs, beyond the store's refreshes, in the staff guide's words. */
  readonly runs: string;
  /** What it sends, and to whom; "nothing" for a job that mails no one. */
  readonly sends: string;
  /** The families of SendClaims keys it claims. */
  readonly claims: readonly ClaimKeyFamilyName[];
  /** The file under app/ that starts it. */
  readonly definedIn: string;
  /** For a job on a timer of its own: how often it runs. */
  readonly everyMs?: number;
};

const AFTER_REFRESHES = "after each timed store refresh";

export const JOBS = {
  decisionMails: {
    name: "decision mails",
    // SendClaims too: rows deleted there may free a claim this instance is waiting on.
    watches: { agents: ["status"], sendClaims: [] },
    runs: "when staff set an applicant's status to approved or rejected",
    sends:
      "the approval or rejection mail to the applicant; for an agent who joined through a request's invitation, that invitation and the poster's notice",
    claims: ["decision", "outreach-approved"],
    definedIn: "server/jobs/decision-mails.server.ts",
  },
  sheetProblemMails: {
    name: "sheet problem mails",
    runs: AFTER_REFRESHES,
    sends: "the workbook's new problems to staff (support e-mail)",
    claims: ["sheet-problem"],
    definedIn: "server/jobs/sheet-problem-mails.server.ts",
  },
  decisionAudit: {
    name: "moderation decision audit",
    watches: { moderation: [] },
    runs: "when staff change the Moderation tab, and after each timed store refresh",
    sends: "nothing: it lists the Moderation rows whose id matches no item, for /healthz and the sheet problem mails",
    claims: [],
    definedIn: "server/moderation/decision-audit.server.ts",
  },
  weeklyDigest: {
    name: "weekly digest",
    runs: "Monday 8:00 Central, looked for after each timed store refresh",
    sends: "each member's digest of the week's new requests in their market",
    claims: ["digest-run", "digest", "digest-done"],
    definedIn: "server/jobs/weekly-digest.server.ts",
  },
  sendClaimsPruning: {
    name: "send claims pruning",
    runs: "once a day, looked for after each timed store refresh",
    sends: "nothing: it deletes the SendClaims rows whose keys can no longer recur",
    claims: ["prune"],
    definedIn: "server/jobs/send-claims-pruning.server.ts",
  },
  suspendedSessions: {
    name: "suspended sessions",
    watches: { agents: ["status"] },
    runs: "when staff suspend a member",
    sends: "nothing: it ends the member's sessions",
    claims: [],
    definedIn: "server/jobs/suspended-sessions.server.ts",
  },
  requestExpiry: {
    name: "request expiry",
    runs: AFTER_REFRESHES,
    sends: "nothing: it marks requests past their 30 days expired",
    claims: [],
    definedIn: "server/jobs/request-expiry.server.ts",
  },
  responseCounts: {
    name: "response counts",
    watches: { responses: [], requests: ["responses"], reports: ["itemStatus"], moderation: [], agents: ["status"] },
    runs: "when responses, a request's count, a report's status, a staff decision in Moderation or a member's status change",
    sends: "nothing: it writes each request's `responses` cell again where it differs from its rows",
    claims: [],
    definedIn: "server/jobs/response-counts.server.ts",
  },
  referralReminders: {
    name: "referral reminders",
    runs: AFTER_REFRESHES,
    sends: "reminders to the parties of quiet referrals and of terms about to end, and the mails of a referral that expired",
    claims: ["referral-reminder", "referral-expired"],
    definedIn: "server/jobs/referral-reminders.server.ts",
  },
  reviewInvitations: {
    name: "review invitations",
    runs: AFTER_REFRESHES,
    sends: "the invitation to review, to both parties of each ended referral",
    claims: ["review-invite"],
    definedIn: "server/jobs/review-invitations.server.ts",
  },
  reviewPublications: {
    name: "review publications",
    runs: AFTER_REFRESHES,
    sends: "the notice of a review just published, to the reviewed member (mail and push)",
    claims: ["review-published"],
    definedIn: "server/jobs/review-publications.server.ts",
  },
  invitationReminders: {
    name: "invitation reminders",
    runs: AFTER_REFRESHES,
    sends: "the one reminder before Respond by, to each invited agent",
    claims: ["invitation-reminder"],
    definedIn: "server/jobs/invitation-reminders.server.ts",
  },
  licenseChecks: {
    name: "license checks",
    runs: "every hour on a timer of its own, and at start-up (not after refreshes)",
    everyMs: 60 * 60 * 1000,
    sends: "lapsed licenses and, once per install, that no TREC data is loaded, to staff",
    claims: ["licenses-not-loaded"],
    definedIn: "server/licenses/licenses.server.ts",
  },
  mirrors: {
    name: "mirror tabs",
    runs: "every 5 minutes, looked for after each timed store refresh, and at the first refresh after staff type a look-up in the Lookup tab",
    sends: "nothing: it rewrites the Lookup, Recent reports and Daily counts tabs of the spreadsheet",
    claims: ["mirror", "mirror-lookup"],
    definedIn: "server/mirrors/mirrors.server.ts",
  },
  liveUpdates: {
    name: "live updates",
    watches: { messages: [], moderation: [], reports: ["itemStatus"] },
    runs: "when another instance stores a message or staff hide or show one",
    sends: "nothing by mail: it tells the members' open pages",
    claims: [],
    definedIn: "server/messages/live.server.ts",
  },
} as const satisfies Record<string, JobEntry>;

export type JobId = keyof typeof JOBS;

/** What the store needs of a job from its entry: its name and the tabs it watches. */
export function refreshJob(id: Exclude<JobId, "licenseChecks">): Pick<RefreshJob, "name" | "watches"> {
  const { name, watches } = JOBS[id] as JobEntry;
  return watches ? { name, watches } : { name };
}
