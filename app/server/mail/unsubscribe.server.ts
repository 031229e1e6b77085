import { isMailKind, type MailKind } from "~/domain/notifications";
import type { Agent } from "~/domain/workbook/tabs";
import { sign, verifySignature } from "../auth/signing.server";

/**
 * An unsubscribe link works for 90 days: long enough for an old mail in the inbox, short
 * enough that a forwarded or leaked mail does not hold a lasting switch to someone's mail.
 */
export const UNSUBSCRIBE_LINK_TTL_SECONDS = 90 * 24 * 60 * 60;
const PURPOSE = "unsubscribe";

/**
 * A token naming the member and the kind of mail, with an expiry, signed with the session
 * secrets. Nothing is stored: the signature is the proof the link came from a mail we sent.
 */
export function createUnsubscribeToken(secrets: readonly string[], agent: Pick<Agent, "id">, kind: MailKind, now = Date.now()): string {
  const expiresAt = Math.floor(now / 1000) + UNSUBSCRIBE_LINK_TTL_SECONDS;
  const encodedId = Buffer.from(agent.id, "utf8").toString("base64url");
  return `${encodedId}.${kind}.${expiresAt}.${sign(secrets, PURPOSE, signedData(agent.id, kind, expiresAt))}`;
}

export type UnsubscribeLink =
  | { ok: true; agent: Agent; kind: MailKind }
  /** invalid: altered, made for no member we know, or not ours at all; expired: genuine but too old. */
  | { ok: false; reason: "invalid" | "expired" };

/** The member and kind a token names, when it is genuine and unexpired. */
export function readUnsubscribeToken(
  secrets: readonly string[],
  token: unknown,
  findAgent: (id: string) => Agent | undefined,
  now = Date.now(),
): UnsubscribeLink {
  const invalid = { ok: false, reason: "invalid" } as const;
  if (typeof token !== "string" || token.length > 500) return invalid;
  const [encodedId, kind, expiry, signature, ...rest] = token.split(".");
  if (!encodedId || !kind || !expiry || !signature || rest.length > 0 || !isMailKind(kind) || !/^\d{1,12}$/.test(expiry)) return invalid;
  const agentId = Buffer.from(encodedId, "base64url").toString("utf8");
  const expiresAt = Number(expiry);
  if (!verifySignature(secrets, PURPOSE, signedData(agentId, kind, expiresAt), signature)) return invalid;
  if (Math.floor(now / 1000) >= expiresAt) return { ok: false, reason: "expired" };
  const agent = findAgent(agentId);
  return agent ? { ok: true, agent, kind } : invalid;
}

function signedData(agentId: string, kind: MailKind, expiresAt: number): string {
  return JSON.stringify([agentId, kind, expiresAt]);
}
