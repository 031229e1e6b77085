/**
 * The app's own work on signed referrals, after each store refresh: a reminder when one
 * has gone quiet or its term is about to end (at most one a week per referral), and the
 * expiry of one whose term ended with no closing. Both follow staff edits in the sheet,
 * since they read the replica as it stands after the refresh.
 */
import { CLAIM_KEYS } from "~/domain/claim-keys";
import { OPEN_PIPELINE_STATUSES } from "~/domain/referrals/status";
import type { Referral, ReferralEvent } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import type { Config } from "../config.server";
import type { Mail } from "../mail/mailer.server";
import type { Notifier } from "../notifier/notifier.server";
import { referralExpiredMail, referralReminderMail, type ReminderReason } from "../mail/referral-reminder-mail.server";
import type { SendClaims } from "../send-claims.server";
import { newId, type BackgroundJob, type Store } from "../store/store.server";
import type { WriteQueues } from "../store/write-queues.server";
import { refreshJob } from "./registry.server";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A signed referral with no step for this long reminds the receiving agent, whose steps come next. */
const QUIET_DAYS = 30;
/** How long before the term's end both parties are reminded. */
const TERM_ENDING_DAYS = 14;
/** At most one reminder per referral in this time. */
const REMINDER_INTERVAL_DAYS = 7;

type Deps = {
  store: Pick<Store, "referrals" | "referralEvents" | "agents" | "addJob">;
  notifier: Pick<Notifier, "enqueue">;
  config: Pick<Config, "appUrl" | "port">;
  /** Shared with the referral page's steps: one read-decide-write per referral at a time (key `referral:{id}`). */
  writeQueues: WriteQueues;
  /** With several instances on one workbook, the one whose claim is first expires or reminds (docs/decisions/0029). */
  claims: Pick<SendClaims, "sendOnce">;
};

/** The last step a party or the app took, reminders aside: a reminder is not news about the deal. */
function lastStepAt(events: readonly ReferralEvent[], referral: Referral): number {
  const times = events.filter((event) => event.step !== "reminder").map((event) => Date.parse(event.createdAt));
  return Math.max(Date.parse(referral.signedAt ?? referral.createdAt), ...times);
}

/** Why the referral needs a reminder now, per party; empty when it does not. */
function reminderReasons(deps: Deps, referral: Referral, now: Date): { receiving: ReminderReason[]; referring: ReminderReason[] } {
  const none = { receiving: [], referring: [] };
  if (referral.lastReminderAt !== undefined && now.getTime() - Date.parse(referral.lastReminderAt) < REMINDER_INTERVAL_DAYS * DAY_MS)
    return none;
  const quiet = now.getTime() - lastStepAt(deps.store.referralEvents.by("referralId", referral.id), referral) >= QUIET_DAYS * DAY_MS;
  const termEnding = referral.termEndsAt !== undefined && Date.parse(referral.termEndsAt) - now.getTime() <= TERM_ENDING_DAYS * DAY_MS;
  return {
    receiving: [...(quiet ? (["no-update"] as const) : []), ...(termEnding ? (["term-ending"] as const) : [])],
    referring: termEnding ? ["term-ending"] : [],
  };
}

function isPastTerm(referral: Referral, now: Date): boolean {
  return referral.termEndsAt !== undefined && Date.parse(referral.termEndsAt) <= now.getTime();
}

/** Queues a mail to a party who is still a member (and wants referral mails); a failed send is logged, the referral's change stays. */
function mailParty(deps: Deps, referral: Referral, email: string, mail: (to: string) => Mail): void {
  const agent = deps.store.agents.by("email", email)[0];
  if (!agent || agent.status !== "approved") return;
  deps.notifier.enqueue({
    mail: mail(email),
    about: `the mail about referral ${referral.id} to ${email}`,
    member: { recipient: agent, kind: "referrals", reason: "you are a party to this referral" },
  });
}

async function addEvent(deps: Deps, referral: Referral, step: string, note: string, now: Date): Promise<void> {
  await deps.store.referralEvents.insert({ id: newId(), referralId: referral.id, step, byEmail: "", note, createdAt: now.toISOString() });
}

async function expire(deps: Deps, referral: Referral, now: Date): Promise<void> {
  const expired = await deps.store.referrals.update(referral.id, { status: "expired", updatedAt: now.toISOString() });
  await addEvent(deps, expired, "expired", "The term ended with no closing.", now);
  const link = publicUrl(deps.config, `/referrals/${referral.id}`);
  for (const email of [expired.referringEmail, expired.receivingEmail])
    mailParty(deps, expired, email, (to) => referralExpiredMail({ referral: expired, to, link }));
}

async function remind(deps: Deps, referral: Referral, reasons: ReturnType<typeof reminderReasons>, now: Date): Promise<void> {
  const reminded = await deps.store.referrals.update(referral.id, { lastReminderAt: now.toISOString() });
  const all = [...new Set([...reasons.receiving, ...reasons.referring])];
  await addEvent(
    deps,
    reminded,
    "reminder",
    all.map((reason) => (reason === "no-update" ? "No update for 30 days" : "Term ends within 14 days")).join("; "),
    now,
  );
  const link = publicUrl(deps.config, `/referrals/${referral.id}`);
  const parties = [
    [reminded.receivingEmail, reasons.receiving],
    [reminded.referringEmail, reasons.referring],
  ] as const;
  for (const [email, reasonsOfParty] of parties)
    if (reasonsOfParty.length > 0)
      mailParty(deps, reminded, email, (to) => referralReminderMail({ referral: reminded, to, reasons: reasonsOfParty, link }));
}

/**
 * One pass over the signed referrals still waiting for a closing: expires those past
 * their term and reminds about the others when due. Each referral is decided again inside
 * its write queue, so a step a party takes at the same moment wins over the pass.
 * Resolves to what it did.
 */
export async function remindAndExpireReferrals(
  deps: Deps,
  now: Date,
  signal?: AbortSignal,
): Promise<{ reminded: number; expired: number }> {
  const done = { reminded: 0, expired: 0 };
  const candidates = OPEN_PIPELINE_STATUSES.flatMap((status) => deps.store.referrals.by("status", status));
  for (const { id } of candidates) {
    // Stopped: the rest wait for the next run, here or on another instance.
    if (signal?.aborted) break;
    await deps.writeQueues.serially(`referral:${id}`, async () => {
      const referral = deps.store.referrals.get(id);
      if (!referral || !OPEN_PIPELINE_STATUSES.includes(referral.status)) return;
      if (isPastTerm(referral, now)) {
        if ((await deps.claims.sendOnce(CLAIM_KEYS["referral-expired"].key(id), now, () => expire(deps, referral, now))) === "sent")
          done.expired += 1;
        return;
      }
      const reasons = reminderReasons(deps, referral, now);
      if (reasons.receiving.length === 0 && reasons.referring.length === 0) return;
      // Named by the reminder before it, so every instance that sees the same referral claims the same key.
      const key = CLAIM_KEYS["referral-reminder"].key(id, referral.lastReminderAt ?? "none");
      if ((await deps.claims.sendOnce(key, now, () => remind(deps, referral, reasons, now))) === "sent") done.reminded += 1;
    });
  }
  return done;
}

/** Runs the pass after each of the store's timed refreshes; `clock` is replaced in tests. */
export function remindReferralsAfterRefreshes(deps: Deps, clock: () => Date = () => new Date()): BackgroundJob {
  return deps.store.addJob({
    ...refreshJob("referralReminders"),
    async run(_event, signal) {
      await remindAndExpireReferrals(deps, clock(), signal);
    },
  });
}
