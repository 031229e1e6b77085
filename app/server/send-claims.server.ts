import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { lastLinkClaimedAt, nextInChain, prunableClaims, winningClaim } from "~/domain/send-claims";
import type { SendClaim } from "~/domain/workbook/tabs";
import { isDuplicateKey } from "./store/postgres/driver.server";
import { describeError, newId, type Store } from "./store/store.server";
import type { ReadMark } from "./store/store.server";

/**
 * Mails that go out once however many app instances share the workbook
 * (docs/decisions/0029). Each send is claimed by key in the SendClaims tab: the claim row
 * is appended, then the rows stored since the replica's last read are read back from the
 * spreadsheet (not the replica; docs/decisions/0039), and the instance sends only when its
 * row is the first of that key. Google Sheets and SQLite both keep appends in the order they
 * arrive, so every instance reading the tab agrees on the first row. At most once: a claim
 * whose read-back fails, or whose process stops before sending, is not sent by anyone; a
 * send that fails is recorded, never tried again. Rows whose key can no longer recur are
 * deleted by `prune`, so the tab stays small.
 *
 * Where SendClaims is a PostgreSQL table (docs/decisions/0053), rows are numbered as they are
 * added but seen as their transactions commit, so the first row read back is not always the
 * first claim: there a unique key on claimed rows decides, refusing every claim of a key but
 * the first. The claim is still read back, and won only while its row is there: a row deleted
 * in between frees the key for another instance (docs/decisions/0059).
 */
export type SendClaims = {
  /** This process's name in the `instance` column. */
  readonly instanceId: string;
  /**
   * Claims the keys in one append and one read of the tab (claims made meanwhile by other
   * callers share the read): resolves with the keys this instance won. A key the replica
   * already shows claimed is not claimed again. A key whose row was deleted before the read
   * found it is not won, and is free to be claimed again. Rejects when a claim cannot be stored
   * or the tab cannot be read back.
   */
  claim(keys: readonly string[], now: Date): Promise<Set<string>>;
  /**
   * Claims `key`, then runs `send` when this instance won it: "taken" when another did (or
   * it was claimed before). When `send` fails, a `failed` row is added under the key, and
   * the send's error is passed on: it is not sent again.
   */
  sendOnce(key: string, now: Date, send: () => Promise<void>): Promise<"sent" | "taken">;
  /**
   * Claims `key` with a claim row of the given id, for a write that must happen once (one
   * agent per e-mail, one mark per member, request and kind; docs/decisions/0032): true when
   * the key's first row has that id. The replica decides when it already shows the key, so
   * a retry of the same write (the same id) wins again without a call; otherwise the row is
   * appended and the tab read back. Rejects when the append or the read fails.
   */
  claimAs(key: string, claimId: string, now: Date): Promise<boolean>;
  /** Adds a `failed` row under a key this instance won and could not send. */
  recordFailure(key: string, error: unknown, now: Date): Promise<void>;
  /** The next key of a throttled chain of notifications, from the replica (see `nextInChain`). */
  nextInChain(subject: string): string;
  /** When the chain's newest link was claimed, from the replica (see `lastLinkClaimedAt`). */
  lastLinkClaimedAt(subject: string): string | undefined;
  /**
   * Reads the tab into the replica now, not at the next refresh: after a chain's link was lost
   * to a row the replica had not read, which may be a claim of long ago rather than of now.
   * A read that fails is logged; the replica stays as it was.
   */
  readAgain(): Promise<void>;
  /**
   * Deletes the rows the replica shows whose keys can no longer be claimed (see
   * `prunableClaims`; the daily job in app/server/jobs does this): resolves with how many.
   */
  prune(now: Date): Promise<number>;
};

const sameMark = (a: ReadMark, b: ReadMark) => a.rowsRead === b.rowsRead && a.lastSignature === b.lastSignature;

export function createSendClaims({
  store,
  uniqueKey = false,
  instanceId = `${hostname()}-${randomUUID().slice(0, 8)}`,
  log = console,
}: {
  store: Store;
  /** The store refuses a second claimed row of a key (SendClaims in PostgreSQL). */
  uniqueKey?: boolean;
  instanceId?: string;
  log?: Pick<Console, "error">;
}): SendClaims {
  const claimsOf = (key: string) => store.sendClaims.by("key", key);

  /** Where the key is unique: whether this row is the key's claim (stored now, or stored before with the same id). */
  async function insertUnique(row: SendClaim): Promise<boolean> {
    try {
      await store.sendClaims.insert(row);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /**
   * The rows this instance read back past the replica's last read of the tab (`base`), and
   * where that read ended: the next read starts there, so each read is the short tail since
   * the last claim, not everything since the replica's read. Dropped once the replica reads
   * the tab again.
   */
  let readAhead: { base: ReadMark; end: ReadMark; rows: readonly SendClaim[] } | undefined;

  /**
   * The rows every caller of one read-back must look at: all rows stored after each one's mark
   * (taken before its append, when the replica showed none of its keys claimed), so every row
   * that could come before theirs under one of their keys.
   */
  async function readPast(marks: readonly ReadMark[]): Promise<readonly SendClaim[]> {
    const now = store.sendClaims.readMark();
    const fromNow = marks.every((mark) => sameMark(mark, now));
    const ahead = fromNow && readAhead && sameMark(readAhead.base, now) ? readAhead : undefined;
    const from = ahead?.end ?? marks.reduce((earliest, mark) => (mark.rowsRead < earliest.rowsRead ? mark : earliest));
    const read = await store.sendClaims.readStoredAfter(from);
    const rows = read.whole ? read.rows : [...(ahead?.rows ?? []), ...read.rows];
    readAhead = read.whole || fromNow ? { base: now, end: read.end, rows } : undefined;
    return rows;
  }

  /** The read that starts next: callers whose rows are stored join it rather than each reading the tab. */
  let nextRead: { marks: ReadMark[]; rows: Promise<readonly SendClaim[]> } | undefined;
  let currentRead: Promise<unknown> | undefined;
  function readAfter(mark: ReadMark): Promise<readonly SendClaim[]> {
    if (nextRead) {
      nextRead.marks.push(mark);
      return nextRead.rows;
    }
    const joined = { marks: [mark], rows: Promise.resolve<readonly SendClaim[]>([]) };
    joined.rows = (async () => {
      await currentRead?.catch(() => undefined);
      nextRead = undefined;
      const read = readPast(joined.marks);
      currentRead = read;
      return read;
    })();
    nextRead = joined;
    return joined.rows;
  }

  const claimRow = (key: string, now: Date, id = newId()) => ({
    id,
    key,
    instance: instanceId,
    outcome: "claimed" as const,
    note: "",
    claimedAt: now.toISOString(),
  });

  async function claim(keys: readonly string[], now: Date): Promise<Set<string>> {
    const mark = store.sendClaims.readMark();
    const fresh = [...new Set(keys)].filter((key) => claimsOf(key).length === 0);
    const rows = fresh.map((key) => claimRow(key, now));
    const inserted = await Promise.allSettled(rows.map((row) => (uniqueKey ? insertUnique(row) : store.sendClaims.insert(row))));
    // A claim that could not be stored is not "taken by another": the caller must hear that the
    // store failed, to answer "try again" (a provider's webhook, a login link) rather than "done".
    const failed = inserted.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    const stored = rows.filter((_, i) => (inserted[i] as PromiseFulfilledResult<unknown>).value !== false);
    if (stored.length === 0) return new Set();
    // Read back where the store keeps one claimed row per key too: a row deleted after its
    // insert would let a second instance's insert of the key succeed, and both would send.
    const tail = await readAfter(mark);
    const won = new Set<string>();
    const vanished: SendClaim[] = [];
    for (const row of stored) {
      const first = winningClaim(tail, row.key);
      if (first?.id === row.id) won.add(row.key);
      else if (!first) vanished.push(row);
    }
    await forget(vanished);
    return won;
  }

  /**
   * Claim rows that were stored but are gone by the read-back: someone deleted them in
   * between, so nobody holds their keys. The replica still shows them (they were this
   * process's own appends, and a read of the tab's tail cannot see a row go), which would keep
   * the keys from ever being claimed again; they are taken out of it, so a later try (the
   * decision mails try again after the next refresh) claims the key anew and the first row
   * then decides as before.
   */
  async function forget(rows: readonly SendClaim[]): Promise<void> {
    if (rows.length === 0) return;
    log.error(`Mail: the claim rows of ${rows.map((row) => row.key).join(", ")} were deleted before they were read back; not sent now.`);
    await store.sendClaims
      .removeStored(rows.map((row) => row.id))
      .catch((error: unknown) => log.error("Mail: could not take the deleted claim rows out of the replica", error));
  }

  async function claimAs(key: string, claimId: string, now: Date): Promise<boolean> {
    const mark = store.sendClaims.readMark();
    const known = winningClaim(claimsOf(key), key);
    if (known) return known.id === claimId;
    if (uniqueKey) {
      if (await insertUnique(claimRow(key, now, claimId))) return true;
      // Another id holds the key; reading the tab brings its row, for the next call to decide without one.
      await store.refreshTabs(["sendClaims"]);
      return false;
    }
    // A retry whose first append was stored after all appends the same id again: the tab's
    // mergeDuplicates reads the two rows as one, and the first still wins.
    await store.sendClaims.insert(claimRow(key, now, claimId)).catch((error: unknown) => {
      if (!store.sendClaims.get(claimId)) throw error;
    });
    return winningClaim(await readAfter(mark), key)?.id === claimId;
  }

  async function recordFailure(key: string, error: unknown, now: Date): Promise<void> {
    await store.sendClaims.insert({
      id: newId(),
      key,
      instance: instanceId,
      outcome: "failed",
      note: describeError(error).slice(0, 500),
      claimedAt: now.toISOString(),
    });
  }

  return {
    instanceId,
    claim,
    claimAs,
    recordFailure,
    async sendOnce(key, now, send) {
      if (!(await claim([key], now)).has(key)) return "taken";
      try {
        await send();
      } catch (error) {
        await recordFailure(key, error, now).catch((problem: unknown) => log.error(`Mail: could not record that ${key} failed`, problem));
        throw error;
      }
      return "sent";
    },
    nextInChain: (subject) =>
      nextInChain(
        subject,
        store.sendClaims.by("chain", subject).map((row) => row.key),
      ),
    lastLinkClaimedAt: (subject) => lastLinkClaimedAt(subject, store.sendClaims.by("chain", subject)),
    readAgain: () => store.refreshTabs(["sendClaims"]),
    async prune(now) {
      const facts = {
        decisionMailed: (agentId: string, decision: string) =>
          (store.agents.get(agentId)?.decisionsMailed ?? []).some((mailed) => mailed === decision),
        lastReminder: (referralId: string) => {
          const referral = store.referrals.get(referralId);
          return referral && (referral.lastReminderAt ?? "none");
        },
      };
      return store.sendClaims.removeStored(prunableClaims(store.sendClaims.all(), now, facts).map((row) => row.id));
    },
  };
}
