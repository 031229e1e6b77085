import { REPLY_REFUSAL_REASONS, type ReplyRefusal } from "~/domain/mail-reply";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent } from "~/domain/workbook/tabs";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

export type ToldRefusal = Exclude<ReplyRefusal, "forged" | "automatic">;

/**
 * Tells a member their reply by mail was not added, why, and where to answer instead. Sent to
 * the address on their profile, never to the mail's From (which may be forged), and without
 * the reply's text: it could be someone else's.
 */
export function replyRefusedMail(options: {
  member: Pick<Agent, "fullName" | "email">;
  reason: ToldRefusal;
  conversationUrl: string;
}): Mail {
  const { member, reason, conversationUrl } = options;
  const first = member.fullName.trim().split(/\s+/)[0];
  const body = renderMailBody(
    `${first ? `Hello ${first}, y` : "Y"}our reply was not added to the conversation: ${REPLY_REFUSAL_REASONS[reason]}`,
    [["Open the conversation", conversationUrl]],
    `You get at most one of these mails an hour. Nothing was sent to the other agent.`,
  );
  return { to: member.email, subject: `Your reply was not added on ${PRODUCT_NAME}`, ...body };
}
