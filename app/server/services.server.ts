import path from "node:path";
import { watchAgentDecisions } from "./accounts/status-mail.server";
import { endSessionsOfSuspendedAgents } from "./accounts/suspension.server";
import { mailSheetProblemsAfterRefreshes, type SheetProblemMails } from "./mail/sheet-problems-mail.server";
import { createAuthServices, type AuthServices } from "./auth/auth-services.server";
import type { Config } from "./config.server";
import { createDirectoryIndexCache, type DirectoryIndexCache } from "./directory/directory-index.server";
import { createImageService, type ImageService } from "./images/images.server";
import { createPhotoFetcher, type PhotoFetcher } from "./images/remote-photo.server";
import { createLicenseService, type LicenseService } from "./licenses/licenses.server";
import { createOutboxMailer, createSendgridMailer } from "./mail/mailer.server";
import { createNotifier, type Notifier } from "./notifier/notifier.server";
import { createReadPositions, type ReadPositions } from "./messages/conversation-members.server";
import { createSummaryCache, type SummaryCache } from "./messages/conversations.server";
import { createMessageEvents, type MessageEvents } from "./messages/live.server";
import { createDraftStorage, type DraftStorage } from "./registration/draft.server";
import { remindReferralsAfterRefreshes } from "./referrals/reminders.server";
import { expireRequestsAfterRefreshes } from "./requests/expiry.server";
import { createLiveRequests, type LiveRequests } from "./requests/live-requests.server";
import { createWriteQueues, type WriteQueues } from "./store/serially.server";
import { createPageCache, PAGE_CACHE_BYTES, type PageCache } from "./page-cache.server";
import { createStoreFromConfig, type Store } from "./store/store.server";
import { createWriteLimits, type WriteLimits } from "./write-limits.server";
import { createSendClaims, type SendClaims } from "./send-claims.server";
import { scheduleWeeklyDigest, type WeeklyDigest } from "./requests/digest.server";

/** Work that runs in the background for as long as the process serves. */
export type BackgroundJob = { stop(): void };

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
  /** Read-decide-write sequences run one at a time per key: registrations, marks, counts, notification times. */
  writeQueues: WriteQueues;
  /** The directory's search index of the approved agents, rebuilt when the agents tab changes. */
  directory: DirectoryIndexCache;
  /** Live updates for open messages pages, from this process's sends and the store's refreshes. */
  messageEvents: MessageEvents;
  /** The live requests in each list order, kept per version of the Requests tab for every member's lists. */
  liveRequests: LiveRequests;
  /** Members' read positions, written at most every 30 seconds per conversation (docs/decisions/0016). */
  readPositions: ReadPositions;
  /** Each member's conversation summaries and unread counts, worked out again only when their rows change. */
  conversationSummaries: SummaryCache;
  /** Claims each mail in the SendClaims tab so that, with several instances on one workbook, it goes out once (docs/decisions/0029). */
  sendClaims: SendClaims;
  /** Job: Monday 8:00 Central, each member's digest of the past week's new requests in their market. */
  weeklyDigest: WeeklyDigest;
  /** Job: mails agents when staff approve or reject their application in the store. */
  decisionMails: BackgroundJob;
  /** Job: ends for good the sessions of agents staff suspended, after each store refresh. */
  suspendedSessions: BackgroundJob;
  /** Job: mails staff the workbook's new degraded tabs, skipped rows and mistyped-looking values, after each store refresh. */
  sheetProblemMails: SheetProblemMails;
  /** Job: marks requests past their 30 days expired, after each store refresh. */
  requestExpiry: BackgroundJob;
  /** Job: reminds the parties of quiet referrals and of terms about to end, and expires referrals past their term, after each store refresh. */
  referralReminders: BackgroundJob;
  /** Public pages rendered once per data version and address, for logged-out visitors (production build only). */
  pageCache: PageCache;
  /** TREC's license data: the check at registration, the daily refresh and lapse check (started and stopped with the services). */
  licenses: LicenseService;
};

export function outboxDirectory(config: Config): string {
  return path.join(config.dataDir, "outbox");
}

/**
 * Chooses each outside service's driver from configuration, once, at start-up, and
 * sets up the caches and jobs. The jobs act on the store's refreshes, so nothing runs
 * until the store is read: call `startServices` to start its timer.
 */
export function createServices(config: Config): Services {
  const driver = config.sendgridApiKey
    ? createSendgridMailer(config.sendgridApiKey, config.mailFrom, config.sendgridApiUrl)
    : createOutboxMailer(outboxDirectory(config), config.mailFrom);
  const store = createStoreFromConfig(config);
  const replica = createReplicaServices(store);
  const sendClaims = createSendClaims({ store });
  const notifier = createNotifier({ driver, claims: sendClaims, config });
  return {
    config,
    notifier,
    auth: createAuthServices(config),
    images: createImageService(config),
    photoFetcher: createPhotoFetcher(),
    limits: createWriteLimits(config),
    drafts: createDraftStorage(config),
    ...replica,
    sendClaims,
    decisionMails: watchAgentDecisions({ store, notifier, config }),
    sheetProblemMails: mailSheetProblemsAfterRefreshes({ store, notifier, claims: sendClaims, config }),
    weeklyDigest: scheduleWeeklyDigest({ store, notifier, claims: sendClaims, config }),
    suspendedSessions: endSessionsOfSuspendedAgents(store),
    requestExpiry: expireRequestsAfterRefreshes(store),
    referralReminders: remindReferralsAfterRefreshes({ store, notifier, config, writeQueues: replica.writeQueues, claims: sendClaims }),
    pageCache: createPageCache(PAGE_CACHE_BYTES),
    licenses: createLicenseService({ config, store, notifier }),
  };
}

/** The queues and caches kept over the replica's records. */
type ReplicaServices = Pick<
  Services,
  "store" | "writeQueues" | "directory" | "liveRequests" | "messageEvents" | "readPositions" | "conversationSummaries"
>;

/** The queues and caches over a store: part of `createServices`, and all that a script reading a store of its own needs for the queries. */
export function createReplicaServices(store: Store): ReplicaServices {
  const writeQueues = createWriteQueues();
  return {
    store,
    writeQueues,
    directory: createDirectoryIndexCache(store),
    liveRequests: createLiveRequests(store),
    messageEvents: createMessageEvents(store),
    readPositions: createReadPositions({ store, writeQueues }),
    conversationSummaries: createSummaryCache(),
  };
}

/** Starts the store's refresh timer, which drives every job. Call once the store's first read succeeded. */
export function startServices(services: Services): void {
  services.store.start();
  services.licenses.start();
}

/**
 * Stops every job and closes the store: open live-update streams end, waiting read
 * positions are dropped, queued mail is sent or recorded as not sent, and the store
 * finishes its refresh and jobs in progress.
 */
export async function stopServices(services: Services): Promise<void> {
  services.messageEvents.close();
  services.decisionMails.stop();
  services.sheetProblemMails.stop();
  await services.weeklyDigest.stop();
  services.suspendedSessions.stop();
  services.requestExpiry.stop();
  services.referralReminders.stop();
  services.readPositions.stop();
  services.licenses.stop();
  // After the jobs, which queue mail; before the store, which records the claims.
  await services.notifier.stop();
  await services.store.stop();
}
