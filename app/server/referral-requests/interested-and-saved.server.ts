import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { MarkKind, RequestMark } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";
import { newId, type Store } from "../store/store.server";

export type InterestedAndSaved = { interested: ReadonlySet<string>; saved: ReadonlySet<string> };

/** The requests a member marked Interested and Saved (marks set to removed do not count). */
export function interestedAndSavedOf({ store }: Pick<Services, "store">, agentEmail: string): InterestedAndSaved {
  const interested = new Set<string>();
  const saved = new Set<string>();
  for (const mark of store.marks.by("agentEmail", agentEmail)) {
    if (mark.status !== "active") continue;
    (mark.kind === "interested" ? interested : saved).add(mark.requestId);
  }
  return { interested, saved };
}

function marksFor(store: Pick<Store, "marks">, agentEmail: string, requestId: string, kind: MarkKind): RequestMark[] {
  return store.marks.by("agentEmail", agentEmail).filter((mark) => mark.requestId === requestId && mark.kind === kind);
}

/**
 * Turns a mark on or off. Idempotent, so a form sent twice changes nothing more, and
 * one decision at a time per member, request and kind in this process, so two posts of a
 * double click store one row; a mark turned off is kept as removed and reused when turned on again.
 * A new row is claimed first (docs/decisions/0032): when another instance claimed the same
 * mark at the same moment, its row is the one, already active.
 */
export function setInterestedOrSaved(
  { store, writeQueues, sendClaims }: Pick<Services, "store" | "writeQueues" | "sendClaims">,
  options: { agentEmail: string; requestId: string; kind: MarkKind; on: boolean; now: Date },
): Promise<void> {
  const { agentEmail, requestId, kind, on, now } = options;
  return writeQueues.serially(`mark:${agentEmail}/${requestId}/${kind}`, async () => {
    const existing = marksFor(store, agentEmail, requestId, kind);
    const updatedAt = now.toISOString();
    if (!on) {
      for (const mark of existing.filter((row) => row.status === "active"))
        await store.marks.update(mark.id, { status: "removed", updatedAt });
      return;
    }
    if (existing.some((row) => row.status === "active")) return;
    const reusable = existing[0];
    if (reusable) {
      await store.marks.update(reusable.id, { status: "active", updatedAt });
      return;
    }
    const id = newId();
    if (!(await sendClaims.claimAs(CLAIM_KEYS.mark.key(agentEmail, requestId, kind), id, now))) return;
    await store.marks.insert({
      id,
      agentEmail,
      requestId,
      kind,
      status: "active",
      createdAt: updatedAt,
      updatedAt: undefined,
    });
  });
}
