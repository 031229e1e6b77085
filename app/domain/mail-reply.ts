/**
 * Answering a conversation by replying to its notification mail (docs/decisions/0071, 0072),
 * pure: the reply address's form, the reply cut from the quoted original and the signature,
 * an automatic answer told from a person's, and the sentences a refused reply is told with.
 */
import EmailReplyParser from "email-reply-parser";
import { PRODUCT_NAME } from "./product";

/** Where SendGrid's Inbound Parse posts the replies (docs/operator-guide.md). */
export const INBOUND_MAIL_PATH = "/mail/inbound";

/** The line every mail with a reply address carries, so the member knows what replying does. */
export const REPLY_BY_MAIL_LINE = `Reply to this e-mail to answer in ${PRODUCT_NAME}.`;

const LOCAL_PART_PREFIX = "reply+";
/** RFC 5321: a local part is at most 64 characters; the token must fit with its prefix. */
const LOCAL_PART_MAX = 64;

export function replyAddress(token: string, domain: string): string {
  return `${LOCAL_PART_PREFIX}${token}@${domain}`;
}

/**
 * The token of the first recipient on the inbound domain whose local part is `reply+...`:
 * mail systems may lower-case the local part, so it is read in lower case. Null when none is.
 */
export function replyTokenIn(recipients: readonly string[], domain: string): string | null {
  const suffix = `@${domain.toLowerCase()}`;
  for (const recipient of recipients) {
    const address = recipient.trim().toLowerCase();
    if (!address.endsWith(suffix)) continue;
    const local = address.slice(0, -suffix.length);
    if (local.startsWith(LOCAL_PART_PREFIX) && local.length <= LOCAL_PART_MAX) return local.slice(LOCAL_PART_PREFIX.length);
  }
  return null;
}

/** The addresses in a header's text (`"Jane" <jane@x.com>, bob@y.com`), lower-cased, in order. */
export function addressesIn(header: string): string[] {
  return [...header.matchAll(/[^\s<>",;:()]+@[^\s<>",;:()]+/g)].map((match) => match[0].toLowerCase().replace(/\.$/, ""));
}

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

/**
 * RFC 3834's Auto-Submitted (anything but "no"), the X-Autoreply family and Precedence
 * bulk, junk or list: an out-of-office or a list's answer, dropped without a mail back,
 * which could start a loop of automatic answers.
 */
export function isAutomaticReply(headers: ReadonlyMap<string, string>): boolean {
  const autoSubmitted = headers.get("auto-submitted")?.trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== "no") return true;
  if (headers.has("x-autoreply") || headers.has("x-autorespond")) return true;
  const precedence = headers.get("precedence")?.trim().toLowerCase();
  return precedence === "bulk" || precedence === "junk" || precedence === "list" || precedence === "auto_reply";
}

/**
 * The header lines of a mail (`Name: value`, folded lines joined), names in lower case;
 * the first of a repeated header is kept, as the one nearest the sender's own.
 */
export function parseHeaderLines(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = block.replace(/\r\n/g, "\n").replace(/\n[ \t]+/g, " ");
  for (const line of unfolded.split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

const parser = new EmailReplyParser();

/**
 * What the member wrote: the plain text with the quoted original ("On ... wrote:", Outlook's
 * "From: ... Sent: ...", "> " lines) and the signature ("-- ", "Sent from my iPhone") cut
 * off by email-reply-parser, line breaks as LF, trimmed. "" when nothing is left.
 */
export function replyTextOf(mail: { text: string; html: string }): string {
  const text = mail.text.trim() !== "" ? mail.text : htmlAsText(mail.html);
  const normalised = text.replace(/\r\n?/g, "\n");
  return parser
    .parseReply(normalised)
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The named entities mail programs write; others come as UTF-8 or numeric references. */
const HTML_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
};

/**
 * The text of an HTML-only reply: what mail programs put the quoted original in (a
 * blockquote, Gmail's `gmail_quote`, Outlook's `divRplyFwdMsg` and everything after it)
 * is left out, block ends become line breaks, and the tags go. Never rendered: the result
 * is stored and shown as plain text.
 */
export function htmlAsText(html: string): string {
  return html
    .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<blockquote\b[\s\S]*<\/blockquote\s*>/gi, "")
    .replace(/<div[^>]*\b(class|id)="?(gmail_quote|gmail_attr|divRplyFwdMsg|appendonsend)[\s\S]*$/i, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|tr|h[1-6])\s*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
      return HTML_ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/\u00a0/g, " ");
}

/** Why a reply by mail was not stored; each but `automatic` and `forged` is told to the member. */
export type ReplyRefusal =
  | "forged"
  | "automatic"
  | "expired"
  | "not-a-member"
  | "sender"
  | "unauthenticated"
  | "left"
  | "blocked"
  | "empty"
  | "too-long"
  | "too-many"
  | "unstored";

/** The one sentence the mail back says, finishing "Your reply was not added to the conversation: ...". */
export const REPLY_REFUSAL_REASONS: Record<Exclude<ReplyRefusal, "forged" | "automatic">, string> = {
  expired: "its reply address is more than 90 days old. Answer on the site, or reply to a newer notification.",
  "not-a-member": "your account is not active, so it cannot send messages.",
  sender: "it came from an address other than the one on your profile. Reply from that address, or answer on the site.",
  unauthenticated: "your mail provider did not confirm that it came from your address (SPF and DKIM both failed). Answer on the site.",
  left: "the other agent can no longer receive messages.",
  blocked: "one of you blocked the other, so no messages can be sent.",
  empty: "no text was left once the quoted mail and the signature were cut off. Write your answer above the quoted text.",
  "too-long": "it is longer than 5,000 characters. Send it in parts, or answer on the site.",
  "too-many": "you sent more messages than the hourly limit allows. Try again later, or answer on the site.",
  unstored: "it could not be stored just now. Please answer on the site.",
};
