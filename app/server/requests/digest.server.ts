import { digestWeekDue, selectDigest, type DigestWeek } from "~/domain/digest";
import { wantsMail } from "~/domain/notifications";
import type { Agent } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import type { Config } from "../config.server";
import { digestMail } from "../mail/digest-mail.server";
import type { Notifier } from "../notifier/notifier.server";
import type { SendClaims } from "../send-claims.server";
import type { BackgroundJob } from "../services.server";
import type { Store } from "../store/store.server";

type Deps = {
  store: Store;
  notifier: Pick<Notifier, "enqueue">;
  claims: SendClaims;
  config: Pick<Config, "appUrl" | "port" | "sessionSecrets">;
  /** The time; replaced in tests. */
  clock?: () => Date;
  log?: Pick<Console, "info" | "error">;
};

/** What one look at the clock did: nothing due yet this week, a run another instance made, or this instance's run. */
type DigestRun =
  | { ran: false; week: string }
  | { ran: true; week: string; sent: number; failed: number; nothingNew: number; optedOut: number; takenElsewhere: number };

export type WeeklyDigest = BackgroundJob & {
  /** Looks whether this week's digest is due and unclaimed, and if so sends it; the refresh job does this after each refresh. */
  run(): Promise<DigestRun>;
  /**
   * Stops looking, and stops a run under way before its next mail: the digests it claimed
   * and had not sent yet are not sent that week (logged). Resolves once the run has stopped.
   */
  stop(): Promise<void>;
};

const runKey = (week: DigestWeek) => `digest-run:${week.week}`;
const memberKey = (week: DigestWeek, member: Agent) => `digest:${week.week}:${member.id}`;

/**
 * The weekly digest (issue 17): from Monday 8:00 Central, the first instance to look after
 * a store refresh claims the week's run in the SendClaims tab, then claims each member's
 * digest in one append and sends those it won (docs/decisions/0029). Nothing is kept in
 * memory between runs: whether the week is done is read from the workbook, so a week missed
 * while no instance was up is sent when one is back within the week, and a week is never
 * sent twice, by a restart or by another instance. The run goes on in the background, so
 * the store's refreshes do not wait for the mails.
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
  const removeJob = deps.store.addRefreshJob(async () => {
    void run().catch((error: unknown) => (deps.log ?? console).error("Digest: the weekly run failed:", error));
  });
  return {
    run,
    async stop() {
      state.stopped = true;
      removeJob();
      await running?.catch(() => undefined);
    },
  };
}

async function runDigest(
  { store, notifier, claims, config, clock = () => new Date(), log = console }: Deps,
  state: { readonly stopped: boolean },
): Promise<DigestRun> {
  const now = clock();
  const week = digestWeekDue(now);
  // The week is claimed (by this or another instance) once: later looks cost no call.
  if (store.sendClaims.by("key", runKey(week)).length > 0) return { ran: false, week: week.week };
  if (!(await claims.claim([runKey(week)], now)).has(runKey(week))) return { ran: false, week: week.week };

  const members = store.agents.by("status", "approved");
  const wanting = members.filter((member) => wantsMail(member, "digest"));
  const requests = store.requests.all();
  const digests = wanting
    .map((member) => ({ member, selection: selectDigest(requests, member, week, now) }))
    .filter(({ selection }) => selection.total > 0);
  const won = await claims.claim(
    digests.map(({ member }) => memberKey(week, member)),
    now,
  );
  let sent = 0;
  let failed = 0;
  for (const { member, selection } of digests) {
    const key = memberKey(week, member);
    if (!won.has(key)) continue;
    if (state.stopped) {
      log.error(`Digest: stopped before the ${week.week} digest to agent ${member.id}; it is not sent this week.`);
      continue;
    }
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
      { claimed: [key], now },
    ).outcome;
    if (outcome === "sent") sent += 1;
    else failed += 1;
  }
  const result = {
    ran: true as const,
    week: week.week,
    sent,
    failed,
    nothingNew: wanting.length - digests.length,
    optedOut: members.length - wanting.length,
    takenElsewhere: digests.length - won.size,
  };
  log.info(
    `Digest: week of ${week.week}: ${sent} sent, ${failed} failed, ${result.nothingNew} with nothing new, ${result.optedOut} turned off, ${result.takenElsewhere} claimed by another instance.`,
  );
  return result;
}
