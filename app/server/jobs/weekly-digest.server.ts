import { CLAIM_KEYS } from "~/domain/claim-keys";
import { setImmediate as nextTurn } from "node:timers/promises";
import { digestWeekDue, memberDigest, weekRequests, type DigestSelection, type DigestWeek } from "~/domain/digest";
import { wantsMail } from "~/domain/notifications";
import { weeklyGrowth } from "~/domain/outreach";
import type { Agent } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import type { Config } from "../config.server";
import { digestMail } from "../mail/digest-mail.server";
import { weeklyGrowthMail } from "../mail/growth-mail.server";
import type { Notifier } from "../notifier/notifier.server";
import { blockedBetween, hiddenItemIds, suspendedEmails } from "../moderation/visibility.server";
import type { SendClaims } from "../send-claims.server";
import type { BackgroundJob, Store } from "../store/store.server";
import { refreshJob } from "./registry.server";

type Deps = {
  store: Store;
  notifier: Pick<Notifier, "enqueue">;
  claims: SendClaims;
  config: Pick<Config, "appUrl" | "port" | "sessionSecrets" | "supportEmail">;
  /** The time; replaced in tests. */
  clock?: () => Date;
  log?: Pick<Console, "info" | "error">;
};

/** What one look at the clock did: nothing due (or another instance's run under way), or this instance's run. */
type DigestRun =
  | { ran: false; week: string }
  | { ran: true; week: string; sent: number; failed: number; nothingNew: number; optedOut: number; takenElsewhere: number };

export type WeeklyDigest = BackgroundJob & {
  /** Looks whether this week's digest is due and not done, and if so sends what is left of it; the refresh job does this after each refresh. */
  run(): Promise<DigestRun>;
  /**
   * Stops looking, and stops a run under way once the batch it claimed is sent: the members
   * not yet claimed are left to the next instance that looks within the week. Resolves once
   * the run has stopped.
   */
  stop(): Promise<void>;
};

/** Members claimed in one append, right before their mails are sent; a stop waits for at most one batch. */
export const DIGEST_BATCH = 25;
/**
 * A run holds the week for this long from its last claimed link (`digest-run:<Monday>#n`),
 * renewed at half of it: a run that stopped without a word (a crash) is resumed by the
 * next instance that looks once its hold has run out.
 */
const RUN_HOLD_MS = 10 * 60_000;

const runChain = (week: DigestWeek) => CLAIM_KEYS["digest-run"].key(week.week);
const doneKey = (week: DigestWeek) => CLAIM_KEYS["digest-done"].key(week.week);
const memberKey = (week: DigestWeek, member: Agent) => CLAIM_KEYS.digest.key(week.week, member.id);

type MemberDigest = { member: Agent; selection: DigestSelection };

/**
 * Each approved member's digest for the week, in one pass over the requests (grouped by
 * market), then each member's from their own market's group: the mail choices, their own
 * requests, blocks either way, and what staff hid or whose author they suspended all
 * respected. Members whose digest is empty are counted apart.
 */
export function selectWeekDigests(
  store: Store,
  week: DigestWeek,
  now: Date,
): { digests: MemberDigest[]; nothingNew: number; optedOut: number } {
  const members = store.agents.by("status", "approved");
  const wanting = members.filter((member) => wantsMail(member, "digest"));
  const hiddenRequests = hiddenItemIds({ store }, "request");
  const suspended = suspendedEmails({ store });
  const requests = weekRequests(
    store.requests.all(),
    week,
    now,
    (request) => hiddenRequests.has(request.id) || suspended.has(request.agentEmail.trim().toLowerCase()),
  );
  const digests = wanting
    .map((member) => ({ member, selection: memberDigest(requests, member, blockedBetween({ store }, member.email)) }))
    .filter(({ selection }) => selection.total > 0);
  return { digests, nothingNew: wanting.length - digests.length, optedOut: members.length - wanting.length };
}

/**
 * The weekly digest (docs/product.md#weekly-digest, docs/decisions/0029 and 0039): from Monday 8:00 Central, the
 * first instance to look after a store refresh holds the week's run in the SendClaims tab,
 * then claims members in small batches right before sending each batch, yielding to page
 * serving between batches. Nothing is kept in memory between runs: what is done is read from
 * the workbook, so a week missed while no instance was up is sent when one is back within the
 * week, a run stopped midway is resumed by the next run within the week, and no member's
 * digest is sent twice, by a restart or by another instance. The run goes on in the
 * background, so the store's refreshes do not wait for the mails.
 */
export function scheduleWeeklyDigest(deps: Deps): WeeklyDigest {
  let running: Promise<DigestRun> | undefined;
  const state = { stopped: false };
  function run(): Promise<DigestRun> {
    running ??= runDigest(deps, state).finally(() => {
      running = undefined;
    });
    return running;
  }
  const job = deps.store.addJob({
    ...refreshJob("weeklyDigest"),
    async run() {
      void run().catch((error: unknown) => (deps.log ?? console).error("Digest: the weekly run failed:", error));
    },
  });
  return {
    run,
    async stop() {
      state.stopped = true;
      await job.stop();
      await running?.catch(() => undefined);
    },
  };
}

/** The week's hold, once claimed: renewed by claiming the chain's next link; lost when another instance took it. */
type Hold = { link: string; since: number };

/** True while the chain's latest link is a hold that has not run out and was not let go (a `failed` row under it). */
function heldElsewhere(store: Store, claims: SendClaims, week: DigestWeek, now: Date): boolean {
  const next = claims.nextInChain(runChain(week));
  const link = Number(next.slice(next.lastIndexOf("#") + 1));
  if (link === 0) return false;
  const rows = store.sendClaims.by("key", `${runChain(week)}#${link - 1}`);
  const first = rows[0];
  if (!first || rows.some((row) => row.outcome === "failed")) return false;
  return now.getTime() - Date.parse(first.claimedAt) < RUN_HOLD_MS;
}

async function takeHold(claims: SendClaims, week: DigestWeek, now: Date): Promise<Hold | undefined> {
  const link = claims.nextInChain(runChain(week));
  return (await claims.claim([link], now)).has(link) ? { link, since: now.getTime() } : undefined;
}

async function runDigest(deps: Deps, state: { readonly stopped: boolean }): Promise<DigestRun> {
  const { store, claims, clock = () => new Date(), log = console } = deps;
  const now = clock();
  const week = digestWeekDue(now);
  // A week done (or held by a run under way) costs no call to look at again.
  if (store.sendClaims.by("key", doneKey(week)).length > 0) return { ran: false, week: week.week };
  if (heldElsewhere(store, claims, week, now)) return { ran: false, week: week.week };
  let hold = await takeHold(claims, week, now);
  if (!hold) return { ran: false, week: week.week };

  const { digests, nothingNew, optedOut } = selectWeekDigests(store, week, now);
  const left = digests.filter(({ member }) => store.sendClaims.by("key", memberKey(week, member)).length === 0);
  const done = { sent: 0, failed: 0, takenElsewhere: 0 };
  for (let start = 0; start < left.length; start += DIGEST_BATCH) {
    if (state.stopped) break;
    await nextTurn();
    if (clock().getTime() - hold.since >= RUN_HOLD_MS / 2) {
      hold = await takeHold(claims, week, clock());
      if (!hold) break;
    }
    const batch = left.slice(start, start + DIGEST_BATCH);
    const won = await claims.claim(
      batch.map(({ member }) => memberKey(week, member)),
      clock(),
    );
    for (const digest of batch) {
      if (!won.has(memberKey(week, digest.member))) done.takenElsewhere += 1;
      else if (await sendDigest(deps, week, digest, now)) done.sent += 1;
      else done.failed += 1;
    }
  }
  const finished = !state.stopped && hold !== undefined;
  if (finished) {
    await claims.claim([doneKey(week)], clock());
    mailStaffGrowth(deps, week, now);
  } else if (hold) await letGo(deps, hold);
  const result = { ran: true as const, week: week.week, ...done, nothingNew, optedOut };
  log.info(
    `Digest: week of ${week.week}: ${done.sent} sent, ${done.failed} failed, ${nothingNew} with nothing new, ${optedOut} turned off, ${done.takenElsewhere} claimed by another instance${finished ? "" : "; stopped, the rest is sent by the next run this week"}.`,
  );
  return result;
}

/** Staff's weekly growth count goes with the week's digest, once across instances. */
function mailStaffGrowth({ store, notifier, config }: Deps, week: DigestWeek, now: Date): void {
  const growth = weeklyGrowth(store.outreach.all(), store.agents.all(), now);
  notifier.enqueue(
    { mail: weeklyGrowthMail(growth, week.week, config.supportEmail), about: `staff's growth summary of the week of ${week.week}` },
    { once: CLAIM_KEYS["growth-summary"].key(week.week), now },
  );
}

/** A run stopped midway lets its hold go, so a restart within the week resumes it at once. */
async function letGo({ claims, clock = () => new Date(), log = console }: Deps, hold: Hold): Promise<void> {
  await claims
    .recordFailure(hold.link, new Error("stopped before the end of the run; the next run this week sends the rest"), clock())
    .catch((error: unknown) => log.error("Digest: could not record that the run stopped:", error));
}

/** Sends one member's digest, already claimed: true when sent; the notifier records a failure under its claim. */
async function sendDigest({ notifier, config }: Deps, week: DigestWeek, { member, selection }: MemberDigest, now: Date): Promise<boolean> {
  const mail = digestMail({
    member,
    selection,
    requestUrl: (request) => publicUrl(config, `/referral-requests/${encodeURIComponent(request.id)}`),
    listUrl: publicUrl(config, selection.listPath),
  });
  const outcome = await notifier.enqueue(
    {
      mail,
      about: `the ${week.week} digest to agent ${member.id}`,
      member: { recipient: member, kind: "digest", reason: "you get the weekly digest of new requests in your market" },
    },
    { claimed: [memberKey(week, member)], now },
  ).outcome;
  return outcome === "sent";
}
