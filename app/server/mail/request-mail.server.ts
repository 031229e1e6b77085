import { locationLabel } from "~/domain/member-profile";
import { PRODUCT_NAME } from "~/domain/product";
import { REQUEST_TYPE_LABELS, timelineLabel } from "~/domain/referral-requests/labels";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import { REPLY_BY_MAIL_LINE } from "~/domain/mail-reply";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

type Responder = Pick<Agent, "fullName" | "email" | "brokerage" | "city" | "state">;

/**
 * Tells a request's poster someone responded: who, what they wrote, and where to read it. A
 * reply goes into the poster's conversation with the responder when `replyAddress` is given
 * (replies by mail are on, docs/decisions/0072), to the responder's address otherwise.
 */
export function responseMail(options: {
  request: ReferralRequest;
  responder: Responder;
  message: string;
  link: string;
  sentAt: Date;
  replyAddress?: string;
}): Mail {
  const { request, responder, message, link, sentAt, replyAddress } = options;
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
    [
      `View the request and all its responses: ${link}`,
      ...(replyAddress ? [`${REPLY_BY_MAIL_LINE} Your reply goes to ${responder.fullName} as a message.`] : []),
      "You get at most one mail per request every 10 minutes.",
    ].join("\n"),
  );
  return { to: request.agentEmail, replyTo: replyAddress ?? responder.email, subject: `New response to your request: ${title}`, ...body };
}

/** Tells a member an urgent request was posted in their market: what is asked, where, by whom, and where to answer it. */
export function urgentRequestMail(options: { request: ReferralRequest; recipient: Pick<Agent, "fullName" | "email">; link: string }): Mail {
  const { request, recipient, link } = options;
  const title = request.title.replace(/\s+/g, " ").trim();
  const firstName = recipient.fullName.trim().split(/\s+/)[0];
  const body = renderMailBody(
    `${firstName ? `Hello ${firstName}, ` : ""}an urgent ${REQUEST_TYPE_LABELS[request.requestType].toLowerCase()} request was just posted in your market on ${PRODUCT_NAME}.`,
    [
      ["Request", title],
      ["Location", locationLabel(request.location, request.state)],
      ["Specialty", request.specialty.trim() || "Not specified"],
      ["Price range", request.priceRange.trim() || "Not specified"],
      ["Timeline", timelineLabel(request.timeline) || "Not specified"],
      ["Posted by", request.agentName.trim() || "A member"],
      ["Read and respond", link],
    ],
    "Urgent requests go to the members in the request's state (and specialty, when it names one) as soon as they are posted.",
  );
  return { to: recipient.email, subject: `Urgent request in your market: ${title}`, ...body };
}
