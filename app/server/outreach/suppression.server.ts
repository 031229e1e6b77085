import type { SuppressionReason } from "~/domain/workbook/suppression-tab";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";

/** Whether the address is on the suppression list: then no invitation goes to it, whoever asks. */
export function isAddressSuppressed({ store }: Pick<Services, "store">, email: string): boolean {
  return store.suppressions.by("email", email).length > 0;
}

/**
 * Puts the address on the suppression list, once: a second request for a listed address
 * (a second click, the provider's event after the person's own click) adds no row.
 * Serial per address in this process, so a double click stores one row.
 */
export function suppressAddress(
  { store, writeQueues }: Pick<Services, "store" | "writeQueues">,
  options: { email: string; reason: SuppressionReason; note: string; now: Date },
): Promise<void> {
  const email = options.email.trim().toLowerCase();
  return writeQueues.serially(`suppress:${email}`, async () => {
    if (isAddressSuppressed({ store }, email)) return;
    await store.suppressions.insert({
      id: newId(),
      email,
      reason: options.reason,
      note: options.note,
      createdAt: options.now.toISOString(),
    });
  });
}
