import { locationLabel } from "~/domain/member-profile";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

type Responder = Pick<Agent, "fullName" | "email" | "brokerage" | "city" | "state">;

/** Tells a request's poster someone responded: who, what they wrote, and where to read it. */
export function responseMail(options: {
  request: ReferralRequest;
  responder: Responder;
  message: string;
  link: string;
  sentAt: Date;
}): Mail {
  const { request, responder, message, link, sentAt } = options;
  const title = request.title.replace(/\s+/g, " ").trim();
  const body = renderMailBody(
    `${responder.fullName} responded to your request on ${PRODUCT_NAME}.`,
    [
      ["Request", title],
      ["From", responder.fullName],
      ["Email", responder.email],
      ["Brokerage", responder.brokerage || "Not specified"],
      ["Location", locationLabel(responder.city, responder.state)],
      ["Sent", sentAt.toISOString()],
      ["Message", message],
    ],
    `View the request and all its responses: ${link}\nYou get at most one mail per request every 10 minutes.`,
  );
  return { to: request.agentEmail, replyTo: responder.email, subject: `New response to your request: ${title}`, ...body };
}
