import { REPLY_BY_MAIL_LINE } from "~/domain/mail-reply";
import { previewText } from "~/domain/messages";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent } from "~/domain/workbook/tabs";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

/** The markets are Texas and Oklahoma: mails give Central time. */
const sentTime = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "America/Chicago" });

export type MessageNotice = {
  sender: Pick<Agent, "fullName" | "brokerage" | "city" | "state">;
  recipient: Pick<Agent, "fullName" | "email">;
  text: string;
  sentAt: Date;
  conversationUrl: string;
  /** The recipient's reply address for this conversation, when replies by mail are on (docs/decisions/0072). */
  replyTo?: string;
};

/**
 * Tells a member a message is waiting. It carries a preview, not the whole message,
 * and neither agent's e-mail address: answering the mail cannot reveal the recipient's
 * address. Its Reply-To, when replies by mail are on, is the recipient's signed address for
 * this conversation, which names no one's address either; otherwise it has none.
 */
export function messageNotificationMail({ sender, recipient, text, sentAt, conversationUrl, replyTo }: MessageNotice): Mail {
  const name = sender.fullName.trim() || "A member";
  const location = [sender.city.trim(), sender.state.trim()].filter(Boolean).join(", ");
  const firstName = recipient.fullName.trim().split(/\s+/)[0];
  const body = renderMailBody(
    `${firstName ? `Hello ${firstName}, ` : ""}${name} sent you a message on ${PRODUCT_NAME}.`,
    [
      ["From", name],
      ["Brokerage", sender.brokerage.trim() || "Independent Agent"],
      ["Location", location || "Not specified"],
      ["Message", previewText(text)],
      ["Sent", `${sentTime.format(sentAt)} Central time`],
      ["Read and reply", conversationUrl],
    ],
    [
      ...(replyTo ? [REPLY_BY_MAIL_LINE] : []),
      "You get at most one mail per conversation every 10 minutes. Log in to read the whole conversation.",
    ].join("\n"),
  );
  return { to: recipient.email, subject: `New message from ${name} on ${PRODUCT_NAME}`, ...(replyTo ? { replyTo } : {}), ...body };
}
