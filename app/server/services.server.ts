import type { AuthServices } from "./auth/auth-services.server";
import type { Config } from "./config.server";
import type { DirectoryIndexCache } from "./directory/directory-index.server";
import type { BestFitIndexCache } from "./matching/candidate-index.server";
import type { ImageService } from "./images/images.server";
import type { PhotoFetcher } from "./images/remote-photo.server";
import type { SheetProblemMails } from "./jobs/sheet-problem-mails.server";
import type { LicenseService } from "./licenses/licenses.server";
import type { MessageEvents } from "./messages/live.server";
import type { Mirrors } from "./mirrors/mirrors.server";
import type { MessageQueries } from "./messages/message-queries.server";
import type { DecisionAudit } from "./moderation/decision-audit.server";
import type { Notifier } from "./notifier/notifier.server";
import type { ReadPositions } from "./messages/read-positions.server";
import type { SummaryCache } from "./messages/summary-cache.server";
import type { PageCache } from "./page-cache.server";
import type { Push } from "./push/push.server";
import type { DraftStorage } from "./registration/draft.server";
import type { FlashStorage } from "./flash.server";
import type { SendClaimsPruning } from "./jobs/send-claims-pruning.server";
import type { WeeklyDigest } from "./jobs/weekly-digest.server";
import type { LiveRequests } from "./referral-requests/live-requests.server";
import type { SendClaims } from "./send-claims.server";
import type { WriteQueues } from "./store/write-queues.server";
import type { Database } from "./store/postgres/database.server";
import type { BackgroundJob, Store } from "./store/store.server";
import type { TrackRecordCache } from "./track-record/track-records.server";
import type { WriteLimits } from "./write-limits.server";

/**
 * Everything the process keeps between requests: the outside services chosen from
 * configuration, every cache and queue, and every background job. Nothing else holds
 * state at module level (docs/decisions/0021). Server functions take this object, or a
 * `Pick` of the members they use, as their first argument.
 */
export type Services = {
  config: Config;
  /** The one way a mail leaves the app: choices, footer, claims, throttles, retries and the queue, over SendGrid or the outbox (docs/mail.md). */
  notifier: Notifier;
  /** Web Push: the members' devices and the push driver the notifier sends through (docs/mail.md); off without VAPID keys. */
  push: Push;
  /** The PostgreSQL database holding the high-volume tabs when `DATABASE_URL` is set, else null (docs/decisions/0053); the store closes it. */
  database: Database | null;
  /** The workbook's in-memory replica, refreshed on a timer from `startServices` on; `server.ts` loads it before listening. */
  store: Store;
  /** Session cookies and the login and password-reset rate limits. */
  auth: AuthServices;
  /** Profile photos: Cloudinary when configured, files in DATA_DIR/uploads otherwise. */
  images: ImageService;
  /** Fetches a photo a member linked to, with guards against reaching internal addresses, so it can be re-hosted. */
  photoFetcher: PhotoFetcher;
  /** Per-hour limits on contact messages, sign-ups and every member write. */
  limits: WriteLimits;
  /** The registration draft's signed cookie. */
  drafts: DraftStorage;
  /** The signed cookie that carries a one-time notice from an action to the page it redirects to (docs/decisions/0064). */
  flash: FlashStorage;
  /** Read-decide-write sequences run one at a time per key: registrations, marks, counts, notification times. */
  writeQueues: WriteQueues;
  /** The directory's search index of the approved agents, rebuilt when the agents tab changes. */
  directory: DirectoryIndexCache;
  /** Every agent's track record, review summary and rank, computed again only when the rows they count change (docs/decisions/0043). */
  trackRecords: TrackRecordCache;
  /** The best-fit ranking's candidates filed by the places they serve, and their signals, kept per version of the tabs they come from (docs/decisions/0046). */
  bestFit: BestFitIndexCache;
  /** Live updates for open messages pages, from this process's sends and the store's refreshes. */
  messageEvents: MessageEvents;
  /** The live requests in each list order, kept per version of the Requests tab for every member's lists. */
  liveRequests: LiveRequests;
  /** Members' read positions, written at most every 30 seconds per conversation (docs/decisions/0016). */
  readPositions: ReadPositions;
  /** Each member's conversation summaries and unread counts, worked out again only when their rows change. */
  conversationSummaries: SummaryCache;
  /** Every read of the Messages and ConversationMembers tabs: by query with a database, from the replica without (docs/decisions/0055). */
  messageQueries: MessageQueries;
  /** Claims each mail in the SendClaims tab so that, with several instances on one workbook, it goes out once (docs/decisions/0029). */
  sendClaims: SendClaims;
  /** Job: Monday 8:00 Central, each member's digest of the past week's new requests in their market. */
  weeklyDigest: WeeklyDigest;
  /** Job: once a day, deletes the SendClaims rows whose keys can no longer recur (docs/decisions/0039). */
  sendClaimsPruning: SendClaimsPruning;
  /** Job: mails agents when staff approve or reject their application in the store. */
  decisionMails: BackgroundJob;
  /** Job: ends for good the sessions of agents staff suspended, after each store refresh. */
  suspendedSessions: BackgroundJob;
  /** Job: lists the Moderation rows whose id matches no item, after each store refresh (docs/decisions/0080). */
  decisionAudit: DecisionAudit;
  /** Job: mails staff the workbook's new degraded tabs, skipped rows and mistyped-looking values, after each store refresh. */
  sheetProblemMails: SheetProblemMails;
  /** Job: marks requests past their 30 days expired, after each store refresh. */
  requestExpiry: BackgroundJob;
  /** Job: writes each request's `responses` cell again where it differs from its rows, after each store refresh. */
  responseCounts: BackgroundJob;
  /** Job: reminds the parties of quiet referrals and of terms about to end, and expires referrals past their term, after each store refresh. */
  referralReminders: BackgroundJob;
  /** Job: invites both parties of each ended referral to review each other, once, after each store refresh. */
  reviewInvitations: BackgroundJob;
  /** Job: tells each member of a review of them just published, by mail and push, once, after each store refresh. */
  reviewPublications: BackgroundJob;
  /** Job: reminds each invited agent once before the request's Respond by, after each store refresh. */
  invitationReminders: BackgroundJob;
  /** Job: rewrites the spreadsheet's mirror tabs (Lookup, Recent reports, Daily counts) for staff, on one instance (docs/decisions/0081). */
  mirrors: Mirrors;
  /** Public pages rendered once per data version and address, for logged-out visitors (production build only). */
  pageCache: PageCache;
  /** TREC's license data: the check at registration, the daily refresh and lapse check (started and stopped with the services). */
  licenses: LicenseService;
};
