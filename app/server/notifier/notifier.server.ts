import { shouldNotify } from "~/domain/messages";
import { wantsMail, type MailKind } from "~/domain/notifications";
import { wantsPush } from "~/domain/push";
import type { PushNotice } from "~/domain/push-notice";
import type { Agent } from "~/domain/workbook/tabs";
import type { Config } from "../config.server";
import type { Mail, Mailer } from "../mail/mailer.server";
import type { Push } from "../push/push.server";
import type { SendClaims } from "../send-claims.server";
import { withUnsubscribe } from "./footer.server";
import type { MailLog, MailLogOutcome } from "./mail-log.server";
import { createMailQueue } from "./mail-queue.server";

/**
 * The one way a mail leaves the app (docs/mail.md, docs/decisions/0036). Callers queue a
 * mail and go on: the notifier applies the member's mail choices and adds the unsubscribe
 * footer, claims the mail in SendClaims when it must go once across instances, follows a
 * throttle chain, sends through the mail driver with retries, and records a failure. At
 * stop it drains: every queued mail is sent or recorded as not sent.
 *
 * A member's notification may also go as a push to their devices (docs/decisions/0067):
 * under the same claim, throttle and settings. A push that lands holds its mail back for
 * PUSH_MAIL_WAIT_MS; the mail then goes only if the item is still unread.
 */
export type Notifier = {
  /** The mail driver in use, for /healthz and the start-up line. */
  readonly driver: Mailer["driver"];
  /**
   * Queues one mail and returns at once. `outcome` settles once the mail is sent or given
   * up; it never rejects, and actions do not wait for it.
   */
  enqueue(mail: Outgoing, rule?: SendRule): { outcome: Promise<Outcome> };
  /** Queues mails that share one rule (one claim, one throttle link): one outcome per mail, in order. */
  enqueueAll(mails: readonly Outgoing[], rule?: SendRule): { outcomes: Promise<Outcome[]> };
  /** Resolves once every queued mail is sent or given up, mails held back after a push included. */
  idle(): Promise<void>;
  /** The member opened this page (path and query): a mail held back after a push about it no longer goes. */
  visited(member: Pick<Agent, "email">, url: string): void;
  /**
   * Drains the queue within DRAIN_MS: no more waits between tries, and a mail not yet handed
   * to the driver by then is recorded as not sent (a `failed` claim row when it was claimed,
   * and a log line naming it). A call already with the driver is waited for.
   */
  stop(): Promise<void>;
};

type Outgoing = {
  mail: Mail;
  /** What the log calls the mail when it fails or is not sent, e.g. "the response mail for request r1". */
  about: string;
  /** A mail the member can turn off: sent only when they want this kind, with the footer and the one-click headers. Account and staff mail has none and always goes. */
  member?: MemberMail;
  /** The same notification as a push, for a member who turned push on for this kind. */
  push?: PushOffer;
};

type PushOffer = {
  notice: PushNotice;
  urgency: "high" | "normal";
  /**
   * Asked once the held mail's wait is over (or at stop): true while the member has not read
   * or answered the item, so the mail still goes. Without it, the item is unread until the
   * member opens the notice's page on this instance (`visited`).
   */
  stillUnread?: () => Promise<boolean>;
};

type MemberMail = {
  recipient: Agent;
  kind: MailKind;
  /** Why they get it, finishing "You get this mail because ...". */
  reason: string;
  /** For the footer's links when APP_URL is not set. */
  request?: Request;
};

/**
 * Throttled notifications of one subject (docs/decisions/0005, 0029): a mail goes only when
 * the subject's `lastNotifiedAt` is 10 minutes old, as the next link of its chain of claims,
 * and its time is stamped once sent. One decision at a time per chain in this process.
 */
export type Throttle = {
  /** The chain's subject, e.g. `message:<conversation>/<e-mail>`. */
  chain: string;
  lastNotifiedAt(): Promise<string | undefined>;
  stamp(at: Date): Promise<unknown>;
};

type SendRule = {
  /** The time the mail is about; the claims and the throttle use it. */
  now?: Date;
  /** Claimed under this key first: sent only by the instance whose claim is first, and never again. */
  once?: string;
  /** Claimed by the caller already: a failure is recorded under these keys. */
  claimed?: readonly string[];
  throttle?: Throttle;
  /** Once the claim is won, before sending: false leaves the mail unsent ("taken"), e.g. when a stamp in the row says it went before. */
  confirm?: () => Promise<boolean>;
};

/**
 * off: the member turned this kind off; taken: another instance (or an earlier try) claimed it; stopped: not sent, the app stopped;
 * pushed: the push landed and the mail, if the member wants it, waits to see whether the item is read meanwhile.
 */
export type Outcome = "sent" | "failed" | "off" | "throttled" | "taken" | "stopped" | "pushed";

/** Driver calls at once: a state's members are mailed quickly without a burst of hundreds of calls. */
const SENDS_AT_ONCE = 4;
/** Links of a chain one mail tries before it counts as throttled: each loss reads the tab again, so a replica far behind catches up at the first. */
const LINK_ATTEMPTS = 3;
/** How long a stop waits for queued mail before recording the rest as not sent. */
const DRAIN_MS = 2_000;

type Deps = {
  driver: Mailer;
  claims: Pick<SendClaims, "claim" | "recordFailure" | "nextInChain" | "lastLinkClaimedAt" | "readAgain">;
  config: Pick<Config, "sessionSecrets" | "appUrl" | "port" | "mailRetryDelaysMs" | "push">;
  /** Web Push; without it every notification goes by mail alone. */
  push?: Pick<Push, "deliver" | "devices">;
  /** Where each mail's outcome is recorded, for `npm run staff -- mail-log`. */
  mailLog?: MailLog;
  log?: Pick<Console, "info" | "error">;
};

export function createNotifier({ driver, claims, config, push, mailLog, log = console }: Deps): Notifier {
  const queue = createMailQueue(SENDS_AT_ONCE);

  /** Records what became of one mail; `key` is the claim or chain it went under. */
  function recordOutcome(mail: Outgoing, outcome: MailLogOutcome, key: string, error?: unknown): void {
    mailLog?.record({
      to: mail.mail.to,
      subject: mail.mail.subject,
      about: mail.about,
      kind: mail.member?.kind ?? "",
      outcome,
      key,
      ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
    });
  }
  /** Mails held back after their push landed: how to end the wait early (at stop), and whom and which page they are about. */
  const held = new Map<Promise<void>, { wake: () => void; email: string; url: string; visited: boolean }>();
  /** Set once the drain's time is up: what has not reached the driver is not sent. */
  let cutOff = false;

  async function giveUp(mail: Outgoing, keys: readonly string[], now: Date): Promise<Outcome> {
    log.error(
      `Mail: ${mail.about} was not sent: the app stopped${keys.length > 0 ? ` (claim ${keys.join(", ")} recorded as failed)` : ""}.`,
    );
    await recordFailure(keys, new Error("Not sent: the app stopped before sending it."), now);
    recordOutcome(mail, "stopped", keys.join(" "));
    return "stopped";
  }

  async function recordFailure(keys: readonly string[], error: unknown, now: Date): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        claims.recordFailure(key, error, now).catch((problem: unknown) => log.error(`Mail: could not record that ${key} failed`, problem)),
      ),
    );
  }

  /** Sends through the driver, trying again after each of the configured waits; no more waits once the queue drains. */
  async function deliver(mail: Outgoing, keys: readonly string[], now: Date): Promise<Outcome> {
    for (let attempt = 0; ; attempt += 1) {
      if (cutOff) return giveUp(mail, keys, now);
      try {
        await queue.inSlot(() => (cutOff ? Promise.reject(new NotSent()) : driver.send(mail.mail)));
        recordOutcome(mail, "sent", keys.join(" "));
        return "sent";
      } catch (error) {
        if (error instanceof NotSent) return giveUp(mail, keys, now);
        const delay = config.mailRetryDelaysMs[attempt];
        if (delay === undefined || !(await queue.pause(delay))) {
          log.error(`Mail: ${mail.about} could not be sent; it is not tried again.`, error);
          await recordFailure(keys, error, now);
          recordOutcome(mail, "failed", keys.join(" "), error);
          return "failed";
        }
      }
    }
  }

  /** A throttled mail is due when neither the stamped time nor the chain's newest claim is within the interval. */
  async function isDue(throttle: Throttle, now: Date): Promise<boolean> {
    return [await throttle.lastNotifiedAt(), claims.lastLinkClaimedAt(throttle.chain)].every((at) => shouldNotify(at, now));
  }

  /** The claim this rule needs before sending: the keys won, or an outcome that ends the mail here. */
  async function claimFor(mails: readonly Outgoing[], rule: SendRule, now: Date): Promise<readonly string[] | Outcome> {
    const about = mails.map((mail) => mail.about).join(" and ");
    const { throttle, once } = rule;
    if (!throttle && once === undefined) return rule.claimed ?? [];
    const won = throttle ? await claimLink(throttle, about, now) : await claimKey(once!, about, now);
    if (typeof won === "string" || !rule.confirm) return won;
    try {
      return (await rule.confirm()) ? won : "taken";
    } catch (error) {
      log.error(`Mail: could not claim ${about} (${won.join(", ")}); not sent.`, error);
      return "failed";
    }
  }

  /** The key claimed, or "taken" when another instance (or an earlier try) holds it. */
  async function claimKey(key: string, about: string, now: Date): Promise<readonly string[] | Outcome> {
    if (cutOff) return "stopped";
    try {
      return (await claims.claim([key], now)).has(key) ? [key] : "taken";
    } catch (error) {
      log.error(`Mail: could not claim ${about} (${key}); not sent.`, error);
      return "failed";
    }
  }

  /**
   * The chain's next link, when the mail is due. A link can be lost to a row this replica had
   * not read: another instance mailing now, or a link claimed long ago that a replica behind
   * on the tab did not know of. Only the rows tell which, so the tab is read again and the
   * mail decided again on them: throttled by a claim of now, on to the next link otherwise.
   */
  async function claimLink(throttle: Throttle, about: string, now: Date): Promise<readonly string[] | Outcome> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        if (!(await isDue(throttle, now))) return "throttled";
      } catch (error) {
        // The throttle's time is read from the store, which can be out of reach for a moment (a database restart).
        log.error(`Mail: could not read when ${about} was last allowed; not sent.`, error);
        return "failed";
      }
      const won = await claimKey(claims.nextInChain(throttle.chain), about, now);
      if (won !== "taken") return won;
      if (attempt === LINK_ATTEMPTS) return "throttled";
      await claims.readAgain();
    }
  }

  function mailWanted(mail: Outgoing): boolean {
    return !mail.member || wantsMail(mail.member.recipient, mail.member.kind);
  }

  function pushWanted(mail: Outgoing): boolean {
    const { member } = mail;
    return (
      push !== undefined &&
      mail.push !== undefined &&
      member !== undefined &&
      wantsPush(member.recipient, member.kind) &&
      push.devices(member.recipient).length > 0
    );
  }

  /** The push first when the member wants it; a push that landed holds the mail back. */
  async function notify(mail: Outgoing, keys: readonly string[], now: Date): Promise<Outcome> {
    const pushed = pushWanted(mail) && (await pushTo(mail));
    if (!mailWanted(mail)) {
      recordOutcome(mail, pushed ? "pushed" : "off", keys.join(" "));
      return pushed ? "pushed" : "off";
    }
    if (!pushed) return deliver(withFooter(mail, now), keys, now);
    recordOutcome(mail, "pushed", keys.join(" "));
    hold(mail, keys, now);
    return "pushed";
  }

  async function pushTo(mail: Outgoing): Promise<boolean> {
    if (cutOff) return false;
    const { notice, urgency } = mail.push!;
    return push!.deliver(mail.member!.recipient, notice, { urgency, pause: (ms) => queue.pause(ms) });
  }

  /**
   * Waits PUSH_MAIL_WAIT_MS, then sends the mail if the item is still unread. A stop ends the
   * wait at once: the mail goes then if still unread rather than being lost with the process
   * (docs/decisions/0067).
   */
  function hold(mail: Outgoing, keys: readonly string[], now: Date): void {
    let wake: () => void = () => undefined;
    const waited = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, config.push.mailWaitMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    // The executor above ran at once, so `wake` ends this wait.
    const entry = { wake, email: mail.member!.recipient.email, url: mail.push!.notice.url, visited: false };
    const { stillUnread = async () => !entry.visited } = mail.push!;
    const done = waited
      .then(async () => {
        const unread = await stillUnread().catch((error: unknown) => {
          // Unknown is unread: a mail twice is better than none.
          log.error(`Mail: could not tell whether ${mail.about} was read; sending it.`, error);
          return true;
        });
        if (unread) await deliver(withFooter(mail, now), keys, now);
        else recordOutcome(mail, "read", keys.join(" "));
      })
      .catch((error: unknown) => log.error(`Mail: ${mail.about}, held back after its push, could not be sent.`, error));
    held.set(done, entry);
    void done.finally(() => held.delete(done));
  }

  async function run(mails: readonly Outgoing[], rule: SendRule, now: Date): Promise<Outcome[]> {
    const ruleKey = rule.once ?? rule.throttle?.chain ?? (rule.claimed ?? []).join(" ");
    const wanted = mails.filter((mail) => mailWanted(mail) || pushWanted(mail));
    for (const mail of mails) if (!wanted.includes(mail)) recordOutcome(mail, "off", ruleKey);
    if (wanted.length === 0) return mails.map(() => "off");
    const claimed = await claimFor(wanted, rule, now);
    if (typeof claimed === "string") {
      if (claimed === "stopped") for (const mail of wanted) log.error(`Mail: ${mail.about} was not sent: the app stopped.`);
      for (const mail of wanted) recordOutcome(mail, claimed, ruleKey);
      return mails.map((mail) => (wanted.includes(mail) ? claimed : "off"));
    }
    const outcomes = await Promise.all(mails.map((mail) => (wanted.includes(mail) ? notify(mail, claimed, now) : ("off" as const))));
    if (rule.throttle && (outcomes.includes("sent") || outcomes.includes("pushed"))) {
      await rule.throttle
        .stamp(now)
        .catch((error: unknown) => log.error(`Mail: ${mails[0]!.about} was sent but its time could not be stored`, error));
    }
    return outcomes;
  }

  function withFooter(outgoing: Outgoing, now: Date): Outgoing {
    const { member } = outgoing;
    if (!member) return outgoing;
    const { recipient, kind, reason, request } = member;
    return { ...outgoing, mail: withUnsubscribe(outgoing.mail, { config, recipient, kind, reason, request, now }) };
  }

  function enqueueAll(mails: readonly Outgoing[], rule: SendRule = {}): { outcomes: Promise<Outcome[]> } {
    const now = rule.now ?? new Date();
    const lane = rule.throttle?.chain ?? rule.once;
    return { outcomes: queue.add(lane, () => run(mails, rule, now)) };
  }

  return {
    driver: driver.driver,
    enqueueAll,
    enqueue: (mail, rule) => ({ outcome: enqueueAll([mail], rule).outcomes.then((outcomes) => outcomes[0]!) }),
    async idle() {
      await queue.idle();
      while (held.size > 0) await Promise.allSettled([...held.keys()]);
    },
    visited(member, url) {
      for (const entry of held.values()) if (entry.email === member.email && entry.url === url) entry.visited = true;
    },
    async stop() {
      queue.drain();
      for (const entry of held.values()) entry.wake();
      const timer = setTimeout(() => (cutOff = true), DRAIN_MS);
      await queue.idle();
      await Promise.allSettled([...held.keys()]);
      clearTimeout(timer);
      await mailLog?.flush();
    },
  };
}

/** A mail whose turn at the driver came after the drain's time was up. */
class NotSent extends Error {}
