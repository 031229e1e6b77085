import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { SuppressionReason } from "~/domain/workbook/suppression-tab";
import type { SendClaim } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";

/** Whether the address is on the suppression list: then no invitation goes to it, whoever asks. */
export function isAddressSuppressed({ store }: Pick<Services, "store">, email: string): boolean {
  return store.suppressions.by("email", email).length > 0;
}

/**
 * How long another instance's claim of an address is trusted to become its row: a write
 * takes seconds even when the sheet answers slowly; a claim older than this with no row
 * belongs to a process that stopped in between.
 */
const CLAIM_TRUSTED_MS = 2 * 60_000;

/**
 * Puts the address on the suppression list, once: a second request for a listed address
 * (a second click, the provider's event after the person's own click) adds no row, on this
 * instance or another. Serial per address in this process; across instances the address is
 * claimed in SendClaims first (docs/decisions/0032, 0084), and the row takes the winning
 * claim's id. Resolves "listed" when the address was on the list already (or another
 * instance is adding it now); rejects when the store did not take the row.
 */
export function suppressAddress(
  { store, writeQueues, sendClaims }: Pick<Services, "store" | "writeQueues" | "sendClaims">,
  options: { email: string; reason: SuppressionReason; note: string; now: Date },
): Promise<"added" | "listed"> {
  const email = options.email.trim().toLowerCase();
  const key = CLAIM_KEYS.suppression.key(email);
  return writeQueues.serially(`suppress:${email}`, async () => {
    if (isAddressSuppressed({ store }, email)) return "listed";
    const id = newId();
    const won = await sendClaims.claimAs(key, id, options.now);
    let rowId = id;
    if (!won) {
      // Both tabs as stored: the winner's row may be there already, and the claims come in the tab's order, the winner first.
      await store.refreshTabs(["sendClaims", "suppressions"]);
      if (isAddressSuppressed({ store }, email)) return "listed";
      const claims = store.sendClaims.by("key", key);
      const winner = claims.find((claim) => claim.outcome === "claimed");
      if (winner && isStillAdding(winner, claims, { now: options.now, instanceId: sendClaims.instanceId })) return "listed";
      // The winner gave up (its write failed, or its process stopped): this try adds its row, under its id.
      rowId = winner?.id ?? id;
    }
    const row = { id: rowId, email, reason: options.reason, note: options.note, createdAt: options.now.toISOString() };
    try {
      await store.suppressions.insertOnce(row, { lookInStore: !won });
    } catch (error) {
      // Recorded, so that the next try (here or on another instance) adds the row at once.
      if (won) await sendClaims.recordFailure(key, error, options.now).catch(() => undefined);
      throw error;
    }
    return "added";
  });
}

/**
 * Another instance's recent claim with no failure recorded: its row is on the way. A claim
 * of this process is never on the way here, since tries of one address run one at a time:
 * an earlier try failed, even if recording that failed too.
 */
function isStillAdding(winner: SendClaim, claims: readonly SendClaim[], { now, instanceId }: { now: Date; instanceId: string }): boolean {
  if (winner.instance === instanceId || claims.some((claim) => claim.outcome === "failed")) return false;
  return now.getTime() - Date.parse(winner.claimedAt) < CLAIM_TRUSTED_MS;
}
