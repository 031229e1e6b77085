import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { nextInChain, winningClaim } from "~/domain/send-claims";
import type { SendClaim } from "~/domain/workbook/tabs";
import { describeError, newId, type Store } from "./store/store.server";

/**
 * Mails that go out once however many app instances share the workbook
 * (docs/decisions/0029). Each send is claimed by key in the SendClaims tab: the claim row
 * is appended, then the tab is read back from the spreadsheet (not the replica), and the
 * instance sends only when its row is the first of that key. Google Sheets and SQLite both
 * keep appends in the order they arrive, so every instance reading the tab agrees on the
 * first row. At most once: a claim whose read-back fails, or whose process stops before
 * sending, is not sent by anyone; a send that fails is recorded, never tried again.
 */
export type SendClaims = {
  /** This process's name in the `instance` column. */
  readonly instanceId: string;
  /**
   * Claims the keys in one append and one read of the tab (claims made meanwhile by other
   * callers share the read): resolves with the keys this instance won. A key the replica
   * already shows claimed is not claimed again. Rejects when the tab cannot be read back.
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
};

export function createSendClaims({
  store,
  instanceId = `${hostname()}-${randomUUID().slice(0, 8)}`,
  log = console,
}: {
  store: Store;
  instanceId?: string;
  log?: Pick<Console, "error">;
}): SendClaims {
  const claimsOf = (key: string) => store.sendClaims.by("key", key);

  /** The read that starts next: callers whose rows are stored join it rather than each reading the tab. */
  let nextRead: Promise<readonly SendClaim[]> | undefined;
  let currentRead: Promise<unknown> | undefined;
  function readAfterNow(): Promise<readonly SendClaim[]> {
    nextRead ??= (async () => {
      await currentRead?.catch(() => undefined);
      nextRead = undefined;
      const read = store.sendClaims.readStored();
      currentRead = read;
      return read;
    })();
    return nextRead;
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
    const fresh = [...new Set(keys)].filter((key) => claimsOf(key).length === 0);
    const rows = fresh.map((key) => claimRow(key, now));
    const inserted = await Promise.allSettled(rows.map((row) => store.sendClaims.insert(row)));
    const stored = rows.filter((row, i) => {
      const result = inserted[i]!;
      if (result.status === "rejected") log.error(`Mail: could not claim ${row.key}; not sent.`, result.reason);
      return result.status === "fulfilled";
    });
    if (stored.length === 0) return new Set();
    const tab = await readAfterNow();
    return new Set(stored.filter((row) => winningClaim(tab, row.key)?.id === row.id).map((row) => row.key));
  }

  async function claimAs(key: string, claimId: string, now: Date): Promise<boolean> {
    const known = winningClaim(claimsOf(key), key);
    if (known) return known.id === claimId;
    // A retry whose first append was stored after all appends the same id again: the tab's
    // mergeDuplicates reads the two rows as one, and the first still wins.
    await store.sendClaims.insert(claimRow(key, now, claimId)).catch((error: unknown) => {
      if (!store.sendClaims.get(claimId)) throw error;
    });
    return winningClaim(await readAfterNow(), key)?.id === claimId;
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
    nextInChain: (subject) => nextInChain(subject, (key) => claimsOf(key).length > 0),
  };
}
