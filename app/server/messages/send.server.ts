import type { IdempotencyKey } from "~/domain/idempotency-key-text";
import { conversationPath } from "~/domain/messages";
import type { Agent, Message } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { messageNotificationMail } from "../mail/message-mail.server";
import { replyAddressFor } from "../mail/reply-address.server";
import type { Outcome } from "../notifier/notifier.server";
import type { Services } from "../services.server";
import { mayBeStored, rowIdFor } from "../idempotency-keys.server";
import { messageNotice } from "../push/notices.server";
import { conversationThrottle } from "./conversation-members.server";

/** The notification's outcome, once the queued mail is sent or given up: the action does not wait for it. */
export type SentMessage = { message: Message; notification: Promise<Outcome> };

type Send = {
  sender: Agent;
  recipient: Agent;
  conversationId: string;
  text: string;
  /** The message form's key: a message sent again after a lost answer is stored once (docs/decisions/0032). */
  idempotencyKey?: IdempotencyKey;
  /** A reply to a notification mail: its row id, made from the mail's Message-ID, and marked as come by mail (docs/decisions/0071). */
  byMail?: { id: string };
  /** For the conversation's address in the mail when APP_URL is not set. */
  request: Request;
};

/**
 * Stores the message, tells both members' open pages, then queues the recipient's mail,
 * which goes unless they turned message mails off or were mailed about this conversation
 * in the last 10 minutes (a push first, when they turned push on: the mail then waits and
 * goes only if the conversation is still unread). Resolves once the message is stored: the page never waits for the
 * mail or its claim, and a mail that fails is the notifier's to log, never reported as a
 * failed send: the recipient still sees the message on the site.
 *
 * Rejects with the store's error when the message could not be stored.
 */
export async function sendMessage(
  services: Pick<Services, "store" | "notifier" | "config" | "messageEvents" | "messageQueries">,
  { sender, recipient, conversationId, text, idempotencyKey, byMail, request }: Send,
): Promise<SentMessage> {
  const { store, notifier, config, messageEvents } = services;
  const sentAt = new Date();
  const message = await store.messages.insertOnce(
    {
      id: byMail?.id ?? rowIdFor(sender.email, idempotencyKey, `${conversationId}\u0000${text}`),
      conversationId,
      fromEmail: sender.email,
      toEmail: recipient.email,
      text,
      createdAt: sentAt.toISOString(),
      via: byMail ? "email" : undefined,
    },
    mayBeStored(idempotencyKey),
  );
  messageEvents.publish([sender.email, recipient.email]);
  const { outcome: notification } = notifier.enqueue(
    {
      mail: messageNotificationMail({
        sender,
        recipient,
        text,
        sentAt,
        conversationUrl: publicUrl(config, conversationPath(conversationId), request),
        replyTo: replyAddressFor(config, recipient, sender, sentAt),
      }),
      about: `the notification of message ${message.id}`,
      member: { recipient, kind: "messages", reason: "a member sent you a message and you have message mails on", request },
      push: {
        notice: messageNotice({ senderName: sender.fullName, text, conversationId }),
        urgency: "high",
        stillUnread: () => hasUnread(services, recipient, conversationId),
      },
    },
    { now: sentAt, throttle: conversationThrottle(services, conversationId, recipient.email) },
  );
  return { message, notification };
}

/** True while the member's read position in the conversation is behind its newest message to them. */
async function hasUnread(services: Pick<Services, "messageQueries">, member: Agent, conversationId: string): Promise<boolean> {
  const summary = (await services.messageQueries.summaries(member)).find((each) => each.conversationId === conversationId);
  return (summary?.unread ?? 0) > 0;
}
