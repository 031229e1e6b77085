import { NOT_PROVIDED, type ContactMessage } from "~/domain/contact";
import { contactCategoryLabel } from "~/domain/enums";
import { PRODUCT_NAME } from "~/domain/product";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

export function contactMail(message: ContactMessage, supportEmail: string, receivedAt: Date): Mail {
  const category = contactCategoryLabel(message.category);
  const body = renderMailBody(`New support message from the ${PRODUCT_NAME} contact form.`, [
    ["Name", message.name],
    ["Email", message.email],
    ["Category", category],
    ["Subject", message.subject],
    ["Agent license", message.agentLicense || NOT_PROVIDED],
    ["State", message.state ?? NOT_PROVIDED],
    ["Received", receivedAt.toISOString()],
    ["Message", message.message],
  ]);
  return {
    to: supportEmail,
    replyTo: message.email,
    subject: `[${category}] ${message.subject.replace(/\s+/g, " ")}`,
    ...body,
  };
}
