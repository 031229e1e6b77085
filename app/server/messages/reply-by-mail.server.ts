import { CLAIM_KEYS } from "~/domain/claim-keys";
import { createHash } from "node:crypto";
import { isAutomaticReply, replyTextOf, replyTokenIn, type ReplyRefusal } from "~/domain/mail-reply";
import { messageSchema } from "~/domain/message-box";
import { conversationPath } from "~/domain/messages";
import type { Agent, Message } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import type { InboundMail } from "../mail/inbound-parse.server";
import { readReplyToken } from "../mail/reply-address.server";
import { replyRefusedMail, type ToldRefusal } from "../mail/reply-refused-mail.server";
import { isBlockedBetween } from "../moderation/visibility.server";
import type { Services } from "../services.server";
import { StoreError } from "../store/store.server";
import { limitReplyByMail } from "../write-limits.server";
import { sendMessage } from "./send.server";

/*
 * A reply to a notification mail becomes a message (docs/decisions/0071): the same rules as
 * the message box, the same store, live update, unread counts, notification and reply times,
 * once per Message-ID however many times or instances the provider posts it to.
 */

type ReplyServices = Pick<Services, "store" | "notifier" | "config" | "messageEvents" | "messageQueries" | "sendClaims" | "limits">;

export type ReplyOutcome =
  { stored: true; message: Message } | { stored: false; reason: ReplyRefusal | "duplicate"; conversationId?: string; told: boolean };

const HOUR_MS = 60 * 60 * 1000;

export async function receiveReply(
  services: ReplyServices,
  mail: InboundMail,
  request: Request,
  { now = new Date(), log = console }: { now?: Date; log?: Pick<Console, "info" | "warn"> } = {},
): Promise<ReplyOutcome> {
  const outcome = await decide(services, mail, request, now);
  log[outcome.stored ? "info" : "warn"](describe(mail, outcome));
  return outcome;
}

async function decide(services: ReplyServices, mail: InboundMail, request: Request, now: Date): Promise<ReplyOutcome> {
  const { config, store } = services;
  // An out-of-office answers every mail: no mail back, or two of them would answer each other.
  if (isAutomaticReply(mail.headers)) return quiet("automatic");
  const token = config.inbound ? replyTokenIn(mail.recipients, config.inbound.domain) : null;
  if (token === null) return quiet("forged");
  const reading = readReplyToken(config.sessionSecrets, token, store.agents.all(), now);
  if (!reading.ok && reading.reason === "forged") return quiet("forged");
  const { member, conversationId } = reading as { member: Agent; conversationId: string };
  const refuse = (reason: ToldRefusal) => tell(services, { member, conversationId, reason, request, now });
  if (!reading.ok) return refuse("expired");
  const { partner } = reading;
  if (member.status !== "approved") return refuse("not-a-member");
  if (mail.from !== member.email) return refuse("sender");
  if (!mail.authenticated) return refuse("unauthenticated");
  if (partner.status !== "approved") return refuse("left");
  if (isBlockedBetween(services, member, partner)) return refuse("blocked");
  const text = replyTextOf(mail);
  if (text === "") return refuse("empty");
  const checked = messageSchema.shape.text.safeParse(text);
  if (!checked.success) return refuse("too-long");

  // Once per Message-ID across instances: the first claim of its key stores it, a resend finds it taken.
  const key = CLAIM_KEYS["reply-mail"].key(digest(mail.messageId));
  if (!(await services.sendClaims.claim([key], now)).has(key)) return { stored: false, reason: "duplicate", conversationId, told: false };
  if (!limitReplyByMail(services, member).allowed) return refuse("too-many");
  try {
    const { message } = await sendMessage(services, {
      sender: member,
      recipient: partner,
      conversationId,
      text: checked.data,
      byMail: { id: rowIdOf(mail.messageId) },
      request,
    });
    return { stored: true, message };
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    await services.sendClaims.recordFailure(key, error, now).catch(() => undefined);
    return refuse("unstored");
  }
}

function quiet(reason: "automatic" | "forged"): ReplyOutcome {
  return { stored: false, reason, told: false };
}

/**
 * Tells the member, at the address on their profile, why their reply was not added: at most
 * one such mail an hour per member, across instances (a claim per member and hour).
 */
function tell(
  { notifier, config }: ReplyServices,
  options: { member: Agent; conversationId: string; reason: ToldRefusal; request: Request; now: Date },
): ReplyOutcome {
  const { member, conversationId, reason, request, now } = options;
  const conversationUrl = publicUrl(config, conversationPath(conversationId), request);
  notifier.enqueue(
    { mail: replyRefusedMail({ member, reason, conversationUrl }), about: `the refused reply's mail to ${member.email}` },
    { once: CLAIM_KEYS["reply-refused"].key(member.email, String(Math.floor(now.getTime() / HOUR_MS))), now },
  );
  return { stored: false, reason, conversationId, told: true };
}

function digest(messageId: string): string {
  return createHash("sha256").update(messageId.trim()).digest("hex").slice(0, 32);
}

/** The message's row id, the same for every post of one mail: a store with a unique id keeps one row even past the claim. */
function rowIdOf(messageId: string): string {
  const hex = digest(messageId);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The log line of one reply: what staff look for (docs/staff-guide.md). */
function describe(mail: InboundMail, outcome: ReplyOutcome): string {
  const from = mail.from || "no From address";
  if (outcome.stored)
    return `Inbound mail: reply from ${from} stored as message ${outcome.message.id} in conversation ${outcome.message.conversationId}.`;
  const where = outcome.conversationId ? ` to conversation ${outcome.conversationId}` : "";
  const told = outcome.told ? "; the member was told by mail (at most one an hour)" : "";
  return `Inbound mail: reply from ${from}${where} refused (${outcome.reason}), Message-ID ${mail.messageId}; nothing stored${told}.`;
}
