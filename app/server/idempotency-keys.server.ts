import { createHash, randomUUID } from "node:crypto";
import type { IdempotencyKey } from "~/domain/idempotency-key-text";
import { newId } from "./store/store.server";

/** A new form's key, made when the page with the form is rendered (docs/decisions/0032). */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/**
 * The id of the row a form adds: the same for every submission of one form by one sender,
 * so a retry finds the row an earlier submission stored. Made from the sender and the key,
 * so a key copied from someone else's page names no row of theirs. No key: a fresh id.
 * `content` is for a form that stays on the page after sending (the message box): a second,
 * different message sent before the page has its next key is not taken for a retry.
 */
export function rowIdFor(sender: string, idempotencyKey: IdempotencyKey | undefined, content = ""): string {
  if (idempotencyKey === undefined) return newId();
  const hex = createHash("sha256").update(`${sender}\u0000${idempotencyKey.key}\u0000${content}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Whether adding the form's row first looks for it in the store, past the replica: only for
 * a form sent again after a refusal, since the look costs a read call on Google Sheets.
 */
export function mayBeStored(idempotencyKey: IdempotencyKey | undefined): { lookInStore: boolean } {
  return { lookInStore: idempotencyKey?.retry ?? false };
}
