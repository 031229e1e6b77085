import path from "node:path";
import { createAuthServices } from "./auth/auth-services.server";
import type { Config } from "./config.server";
import { createDirectoryIndexCache } from "./directory/directory-index.server";
import { createBestFitIndexCache } from "./matching/candidate-index.server";
import { createTrackRecordCache } from "./track-record/track-records.server";
import { createImageService } from "./images/images.server";
import { createPhotoFetcher } from "./images/remote-photo.server";
import { watchAgentDecisions } from "./jobs/decision-mails.server";
import { remindReferralsAfterRefreshes } from "./jobs/referral-reminders.server";
import { remindInvitedAgentsAfterRefreshes } from "./jobs/invitation-reminders.server";
import { inviteReviewersAfterRefreshes } from "./jobs/review-invitations.server";
import { notifyPublishedReviewsAfterRefreshes } from "./jobs/review-publications.server";
import { pruneSendClaimsDaily } from "./jobs/send-claims-pruning.server";
import { expireRequestsAfterRefreshes } from "./jobs/request-expiry.server";
import { recountResponsesAfterRefreshes } from "./jobs/response-counts.server";
import { mailSheetProblemsAfterRefreshes } from "./jobs/sheet-problem-mails.server";
import { endSessionsOfSuspendedAgents } from "./jobs/suspended-sessions.server";
import { scheduleWeeklyDigest } from "./jobs/weekly-digest.server";
import { createLicenseService } from "./licenses/licenses.server";
import { createOutboxMailer, createSendgridMailer } from "./mail/mailer.server";
import { createMessageEvents } from "./messages/live.server";
import { rewriteMirrorsAfterRefreshes } from "./mirrors/mirrors.server";
import { auditStaffDecisions } from "./moderation/decision-audit.server";
import { createReplicaMessageQueries } from "./messages/message-queries.server";
import { createPostgresMessageQueries } from "./messages/postgres-message-queries.server";
import { createNotifier } from "./notifier/notifier.server";
import { createMailLog, mailLogFile } from "./notifier/mail-log.server";
import { createReadPositions } from "./messages/read-positions.server";
import { createSummaryCache } from "./messages/summary-cache.server";
import { createPageCache, PAGE_CACHE_BYTES } from "./page-cache.server";
import { createPush } from "./push/push.server";
import { createDraftStorage } from "./registration/draft.server";
import { createFlashStorage } from "./flash.server";
import { createLiveRequests } from "./referral-requests/live-requests.server";
import { createSendClaims } from "./send-claims.server";
import type { Services } from "./services.server";
import { createWriteQueues } from "./store/write-queues.server";
import type { Database } from "./store/postgres/database.server";
import { createStoreFromConfig, databaseFromConfig, type Store } from "./store/store.server";
import { createWriteLimits } from "./write-limits.server";

/*
 * Builds, starts and stops the process's `Services`. The type is in services.server.ts, which
 * every module that takes `Services` imports; this module imports those that make its members,
 * so only the server, scripts, tests and the dev outbox page import it, never the modules it
 * builds (docs/decisions/0037).
 */

export function outboxDirectory(config: Config): string {
  return path.join(config.dataDir, "outbox");
}

/**
 * Chooses each outside service's driver from configuration, once, at start-up, and
 * sets up the caches and jobs. The jobs act on the store's refreshes: those that watch a
 * tab follow any refresh that changed it, and every job runs after each timed refresh, once
 * `startServices` has started the timer.
 */
export function createServices(config: Config): Services {
  const driver = config.sendgridApiKey
    ? createSendgridMailer(config.sendgridApiKey, config.mailFrom, config.sendgridApiUrl)
    : createOutboxMailer(outboxDirectory(config), config.mailFrom);
  const database = databaseFromConfig(config);
  const store = createStoreFromConfig(config, database);
  const replica = createReplicaServices(store, database);
  const sendClaims = createSendClaims({ store, uniqueKey: database !== null });
  const push = createPush({ store, writeQueues: replica.writeQueues, config });
  const mailLog = createMailLog(mailLogFile(config), { instance: sendClaims.instanceId });
  const notifier = createNotifier({ driver, claims: sendClaims, config, push, mailLog });
  const decisionAudit = auditStaffDecisions({ store, messageQueries: replica.messageQueries });
  return {
    config,
    database,
    notifier,
    push,
    auth: createAuthServices(config),
    images: createImageService(config),
    photoFetcher: createPhotoFetcher(),
    limits: createWriteLimits(config),
    drafts: createDraftStorage(config),
    flash: createFlashStorage(config),
    ...replica,
    sendClaims,
    decisionMails: watchAgentDecisions({
      store,
      notifier,
      config,
      outreach: { store, notifier, config, writeQueues: replica.writeQueues, sendClaims },
    }),
    decisionAudit,
    sheetProblemMails: mailSheetProblemsAfterRefreshes({ store, notifier, claims: sendClaims, config, decisionAudit }),
    weeklyDigest: scheduleWeeklyDigest({ store, notifier, claims: sendClaims, config }),
    sendClaimsPruning: pruneSendClaimsDaily({ store, claims: sendClaims }),
    suspendedSessions: endSessionsOfSuspendedAgents(store),
    requestExpiry: expireRequestsAfterRefreshes(store),
    responseCounts: recountResponsesAfterRefreshes(replica),
    referralReminders: remindReferralsAfterRefreshes({ store, notifier, config, writeQueues: replica.writeQueues, claims: sendClaims }),
    reviewInvitations: inviteReviewersAfterRefreshes({ store, notifier, config }),
    reviewPublications: notifyPublishedReviewsAfterRefreshes({ store, notifier, config }),
    invitationReminders: remindInvitedAgentsAfterRefreshes({ store, notifier, config, claims: sendClaims }),
    mirrors: rewriteMirrorsAfterRefreshes({ store, messageQueries: replica.messageQueries, claims: sendClaims }),
    pageCache: createPageCache(PAGE_CACHE_BYTES),
    licenses: createLicenseService({ config, store, notifier }),
  };
}

/** The queues and caches kept over the replica's records. */
type ReplicaServices = Pick<
  Services,
  | "store"
  | "writeQueues"
  | "directory"
  | "trackRecords"
  | "bestFit"
  | "liveRequests"
  | "messageEvents"
  | "readPositions"
  | "conversationSummaries"
  | "messageQueries"
>;

/**
 * The queues and caches over a store: part of `createServices`, and all that a script reading
 * a store of its own needs for the queries. With a database, the messages are read from it.
 */
export function createReplicaServices(store: Store, database: Database | null = null): ReplicaServices {
  const writeQueues = createWriteQueues();
  const readPositions = createReadPositions({ store, writeQueues });
  const conversationSummaries = createSummaryCache();
  const messageQueries = database
    ? createPostgresMessageQueries(database, store)
    : createReplicaMessageQueries({ store, writeQueues, readPositions, conversationSummaries });
  const trackRecords = createTrackRecordCache(store, messageQueries.openings);
  return {
    store,
    writeQueues,
    directory: createDirectoryIndexCache(store),
    trackRecords,
    bestFit: createBestFitIndexCache(store, trackRecords, messageQueries.latestActivity),
    liveRequests: createLiveRequests(store),
    messageEvents: createMessageEvents(store, database),
    readPositions,
    conversationSummaries,
    messageQueries,
  };
}

/** Starts the store's refresh timer, which drives every job. Call once the store's first read succeeded. */
export function startServices(services: Services): void {
  services.store.start();
  services.licenses.start();
}

/**
 * Stops every job and closes the store: open live-update streams end, waiting read
 * positions are dropped, each job's run in flight is waited for (cut after the store's stop
 * wait, docs/decisions/0037), queued mail is sent or recorded as not sent, and the store
 * finishes its refresh in progress.
 */
export async function stopServices(services: Services): Promise<void> {
  services.messageEvents.close();
  services.readPositions.stop();
  services.licenses.stop();
  const jobs = [
    services.decisionMails,
    services.decisionAudit,
    services.sheetProblemMails,
    services.weeklyDigest,
    services.sendClaimsPruning,
    services.suspendedSessions,
    services.requestExpiry,
    services.responseCounts,
    services.referralReminders,
    services.reviewInvitations,
    services.reviewPublications,
    services.invitationReminders,
    services.mirrors,
  ];
  await Promise.all(jobs.map((job) => job.stop()));
  // After the jobs, which queue mail; before the store, which records the claims.
  await services.notifier.stop();
  await services.store.stop();
}
