import type { FormKey } from "~/domain/form-key-text";
import { conversationPath } from "~/domain/messages";
import { wantsMail } from "~/domain/notifications";
import type { Agent, Message } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { messageNotificationMail } from "../mail/message-mail.server";
import { withUnsubscribe } from "../mail/unsubscribe.server";
import type { Services } from "../services.server";
import { mayBeStored, rowIdFor } from "../form-keys.server";
import { notifyThrottled, type NotifyOutcome } from "./conversation-members.server";

/** off: the recipient turned message mails off. */
export type SentMessage = { message: Message; notification: NotifyOutcome | "off" | "failed" };

type Send = {
  sender: Agent;
  recipient: Agent;
  conversationId: string;
  text: string;
  /** The message form's key: a message sent again after a lost answer is stored once (docs/decisions/0032). */
  formKey?: FormKey;
  /** For the conversation's address in the mail when APP_URL is not set. */
  request: Request;
};

/**
 * Stores the message, tells both members' open pages, then mails the recipient unless
 * they turned message mails off or were mailed about this conversation in the last 10 minutes. The message is
 * stored before any mail is tried, and a mail that fails is logged, never reported
 * as a failed send: the recipient still sees it on the site.
 *
 * Rejects with the store's error when the message could not be stored.
 */
export async function sendMessage(
  services: Pick<Services, "store" | "mailer" | "config" | "messageEvents" | "writeQueues" | "sendClaims">,
  { sender, recipient, conversationId, text, formKey, request }: Send,
): Promise<SentMessage> {
  const { store, mailer, config, messageEvents } = services;
  const sentAt = new Date();
  const message = await store.messages.insertOnce(
    {
      id: rowIdFor(sender.email, formKey, `${conversationId}\u0000${text}`),
      conversationId,
      fromEmail: sender.email,
      toEmail: recipient.email,
      text,
      createdAt: sentAt.toISOString(),
    },
    mayBeStored(formKey),
  );
  messageEvents.publish([sender.email, recipient.email]);
  if (!wantsMail(recipient, "messages")) return { message, notification: "off" };

  const mail = withUnsubscribe(
    messageNotificationMail({
      sender,
      recipient,
      text,
      sentAt,
      conversationUrl: publicUrl(config, conversationPath(conversationId), request),
    }),
    { config, recipient, kind: "messages", reason: "a member sent you a message and you have message mails on", request, now: sentAt },
  );
  try {
    const notification = await notifyThrottled(services, {
      conversationId,
      agentEmail: recipient.email,
      now: sentAt,
      send: () => mailer.send(mail),
    });
    return { message, notification };
  } catch (error) {
    console.error(`Messages: the notification mail for message ${message.id} could not be sent; the message is stored.`, error);
    return { message, notification: "failed" };
  }
}
