import type { Pool } from "pg";
import { nextInChain } from "~/domain/send-claims";
import { describeError, newId } from "../store.server";

/**
 * The send-once claims (docs/decisions/0029) where SendClaims is a PostgreSQL table
 * (docs/decisions/0053): a claim is an insert that the unique key on claimed rows lets only
 * the first instance make, so no instance reads the tab back to learn who won. The same
 * answers as the workbook's claims (`send-claims.server.ts`), whose append-and-read-back
 * protocol stays for deployments without PostgreSQL.
 */
export type PostgresClaims = {
  /** Claims the keys in one statement: resolves with the keys this instance won (not those claimed before). */
  claim(keys: readonly string[], now: Date): Promise<Set<string>>;
  /**
   * Claims `key` with a claim row of the given id, for a write that must happen once: true
   * when the key's claim has that id, so a retry of the same write (the same id) wins again.
   */
  claimAs(key: string, claimId: string, now: Date): Promise<boolean>;
  /** Adds a `failed` row under a key this instance won and could not send. */
  recordFailure(key: string, error: unknown, now: Date): Promise<void>;
  /** The next key of a throttled chain of notifications, read through the table's chain index. */
  nextInChain(subject: string): Promise<string>;
};

export function createPostgresClaims({ pool, instanceId }: { pool: Pick<Pool, "query">; instanceId: string }): PostgresClaims {
  /** Inserts claimed rows, skipping keys claimed already: the keys whose rows went in. */
  async function insertClaims(rows: readonly { id: string; key: string }[], now: Date): Promise<Set<string>> {
    const result = await pool.query<{ key: string }>(
      `INSERT INTO "SendClaims" ("id", "key", "instance", "outcome", "note", "claimedAt")
       SELECT claim.id, claim.key, $3, 'claimed', '', $4 FROM unnest($1::text[], $2::text[]) AS claim(id, key)
       ON CONFLICT DO NOTHING
       RETURNING "key"`,
      [rows.map((row) => row.id), rows.map((row) => row.key), instanceId, now.toISOString()],
    );
    return new Set(result.rows.map((row) => row.key));
  }

  return {
    async claim(keys, now) {
      const fresh = [...new Set(keys)];
      if (fresh.length === 0) return new Set();
      return insertClaims(
        fresh.map((key) => ({ id: newId(), key })),
        now,
      );
    },
    async claimAs(key, claimId, now) {
      if ((await insertClaims([{ id: claimId, key }], now)).has(key)) return true;
      const winner = await pool.query<{ id: string }>(`SELECT "id" FROM "SendClaims" WHERE "key" = $1 AND "outcome" = 'claimed'`, [key]);
      return winner.rows[0]?.id === claimId;
    },
    async recordFailure(key, error, now) {
      await pool.query(
        `INSERT INTO "SendClaims" ("id", "key", "instance", "outcome", "note", "claimedAt") VALUES ($1, $2, $3, 'failed', $4, $5)`,
        [newId(), key, instanceId, describeError(error).slice(0, 500), now.toISOString()],
      );
    },
    async nextInChain(subject) {
      // The index's own expression, so the look-up goes through it.
      const links = await pool.query<{ key: string }>(`SELECT "key" FROM "SendClaims" WHERE substring("key" FROM '^(.+)#[0-9]+$') = $1`, [
        subject,
      ]);
      return nextInChain(
        subject,
        links.rows.map((row) => row.key),
      );
    },
  };
}
