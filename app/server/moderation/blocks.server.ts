import type { Agent, Block } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";

/** The blocks the member made that still stand, newest first: the settings page's list. */
export function activeBlocksBy({ store }: Pick<Services, "store">, member: Pick<Agent, "email">): Block[] {
  return store.blocks
    .by("blockerEmail", member.email)
    .filter((block) => block.status === "active")
    .sort((a, b) => (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt));
}

/** True when `blocker` blocked `blocked` (one way only: the button the blocker sees). */
export function hasBlocked({ store }: Pick<Services, "store">, blocker: Pick<Agent, "email">, blocked: Pick<Agent, "email">): boolean {
  return store.blocks.by("blockerEmail", blocker.email).some((block) => block.status === "active" && block.blockedEmail === blocked.email);
}

/**
 * Blocks or unblocks. Idempotent, and one decision at a time per pair in this process,
 * so a double click stores one row; an unblocked row is kept as removed and reused
 * when the member blocks again, like the Marks tab's rows.
 */
export function setBlock(
  { store, writeQueues }: Pick<Services, "store" | "writeQueues">,
  options: { blocker: Pick<Agent, "email">; blocked: Pick<Agent, "email">; on: boolean; now: Date },
): Promise<void> {
  const blockerEmail = options.blocker.email;
  const blockedEmail = options.blocked.email;
  const updatedAt = options.now.toISOString();
  return writeQueues.serially(`block:${blockerEmail}/${blockedEmail}`, async () => {
    const rows = store.blocks.by("blockerEmail", blockerEmail).filter((block) => block.blockedEmail === blockedEmail);
    const active = rows.filter((block) => block.status === "active");
    if (!options.on) {
      for (const block of active) await store.blocks.update(block.id, { status: "removed", updatedAt });
      return;
    }
    if (active.length > 0) return;
    const reusable = rows[0];
    if (reusable) {
      await store.blocks.update(reusable.id, { status: "active", updatedAt });
      return;
    }
    await store.blocks.insert({ id: newId(), blockerEmail, blockedEmail, status: "active", createdAt: updatedAt, updatedAt: undefined });
  });
}
