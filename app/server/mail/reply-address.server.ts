import { createHash } from "node:crypto";
import { conversationIdFor } from "~/domain/conversation";
import { replyAddress } from "~/domain/mail-reply";
import type { Agent } from "~/domain/workbook/tabs";
import { shortSignature, verifyShortSignature } from "../auth/signing.server";
import type { Config } from "../config.server";

/*
 * The per-recipient, per-conversation reply address of a notification (docs/decisions/0072):
 * `reply+TOKEN@INBOUND_DOMAIN`. The token must fit an e-mail local part (64 characters with
 * its prefix) and survive a mail system lower-casing it, so it is bytes in lower-case base32,
 * not the mailed links' base64url JSON: a 6-byte tag of the member's id and one of the other
 * agent's, the last day it is good for, and 12 bytes of the session secrets' HMAC over the
 * full ids and that day. The tags only find the candidates; the signature decides. No
 * address is in it, so a reply reveals no member's address.
 */

const PURPOSE = "reply-address";
/** A reply address works for 90 days after its mail. */
const REPLY_ADDRESS_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
const TAG_BYTES = 6;
const DAY_BYTES = 2;
const SIGNATURE_BYTES = 12;
const TOKEN_BYTES = 2 * TAG_BYTES + DAY_BYTES + SIGNATURE_BYTES;

/**
 * The address `member` answers their conversation with `partner` at, or undefined when no
 * inbound domain is configured (the mail then keeps its Reply-To of before).
 */
export function replyAddressFor(
  config: Pick<Config, "inbound" | "sessionSecrets">,
  member: Pick<Agent, "id">,
  partner: Pick<Agent, "id">,
  now = new Date(),
): string | undefined {
  if (!config.inbound) return undefined;
  return replyAddress(replyToken(config.sessionSecrets, member.id, partner.id, now), config.inbound.domain);
}

export function replyToken(secrets: readonly string[], memberId: string, partnerId: string, now: Date): string {
  const lastDay = Math.floor(now.getTime() / DAY_MS) + REPLY_ADDRESS_DAYS;
  const day = Buffer.alloc(DAY_BYTES);
  day.writeUInt16BE(lastDay);
  const signature = shortSignature(secrets, PURPOSE, signedData(memberId, partnerId, lastDay), SIGNATURE_BYTES);
  return base32(Buffer.concat([tagOf(memberId), tagOf(partnerId), day, signature]));
}

export type ReplyTokenReading =
  | { ok: true; member: Agent; partner: Agent; conversationId: string }
  | { ok: false; reason: "forged" }
  | { ok: false; reason: "expired"; member: Agent; conversationId: string };

/**
 * The member and conversation a token names, among `agents`. A token whose signature no
 * pair of agents makes is forged (so is one naming an agent whose row is gone); a genuine
 * one past its last day is expired.
 */
export function readReplyToken(secrets: readonly string[], token: string, agents: readonly Agent[], now = new Date()): ReplyTokenReading {
  const bytes = fromBase32(token.toLowerCase());
  if (!bytes || bytes.length !== TOKEN_BYTES) return { ok: false, reason: "forged" };
  const memberTag = bytes.subarray(0, TAG_BYTES);
  const partnerTag = bytes.subarray(TAG_BYTES, 2 * TAG_BYTES);
  const lastDay = bytes.readUInt16BE(2 * TAG_BYTES);
  const signature = bytes.subarray(2 * TAG_BYTES + DAY_BYTES);
  const members = agents.filter((agent) => tagOf(agent.id).equals(memberTag));
  const partners = agents.filter((agent) => tagOf(agent.id).equals(partnerTag));
  for (const member of members) {
    for (const partner of partners) {
      if (partner.id === member.id) continue;
      if (!verifyShortSignature(secrets, PURPOSE, signedData(member.id, partner.id, lastDay), signature)) continue;
      const conversationId = conversationIdFor(member.id, partner.id);
      if (Math.floor(now.getTime() / DAY_MS) > lastDay) return { ok: false, reason: "expired", member, conversationId };
      return { ok: true, member, partner, conversationId };
    }
  }
  return { ok: false, reason: "forged" };
}

function tagOf(id: string): Buffer {
  return createHash("sha256").update(`${PURPOSE}\u0000${id}`).digest().subarray(0, TAG_BYTES);
}

function signedData(memberId: string, partnerId: string, lastDay: number): string {
  return JSON.stringify([memberId, partnerId, lastDay]);
}

/** RFC 4648's base32 alphabet in lower case, without padding. */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer | null {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
