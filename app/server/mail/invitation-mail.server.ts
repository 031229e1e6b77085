import { deadlineLabel } from "~/domain/invitations";
import { locationLabel } from "~/domain/member-profile";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import { REPLY_BY_MAIL_LINE } from "~/domain/mail-reply";
import { renderMailBody, type MailRow } from "./html.server";
import type { Mail } from "./mailer.server";

type Invited = Pick<Agent, "fullName" | "email">;

/** The request in a few rows: what is asked, where, by whom and by when. */
function requestRows(request: ReferralRequest, posterName: string): MailRow[] {
  return [
    ["Request", oneLine(request.title)],
    ["Location", locationLabel(request.location, request.state)],
    ["Specialty", request.specialty.trim() || "Not specified"],
    ["Invited by", posterName],
    ...(request.respondBy ? [["Respond by", deadlineLabel(request.respondBy)] as MailRow] : []),
  ];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function greeting(agent: Invited): string {
  const first = agent.fullName.trim().split(/\s+/)[0];
  return first ? `Hello ${first}, ` : "";
}

/**
 * Tells an agent a member picked them as a best fit for a request and asks them to respond (or
 * say it is not a fit). A reply goes to the poster: into their conversation when `replyAddress`
 * is given (replies by mail are on, docs/decisions/0072), to the poster's own address otherwise.
 */
export function invitationMail(options: {
  request: ReferralRequest;
  posterName: string;
  agent: Invited;
  link: string;
  replyAddress?: string;
}): Mail {
  const { request, posterName, agent, link, replyAddress } = options;
  const body = renderMailBody(
    `${greeting(agent)}${posterName} invites you to respond to their request on ${PRODUCT_NAME}: you are among the agents best placed to take it.`,
    requestRows(request, posterName),
    [
      `Read the request and respond: ${link}`,
      `Not for you? Answer "Not a fit" from your dashboard, so ${posterName} can ask someone else.`,
      ...(replyAddress ? [`${REPLY_BY_MAIL_LINE} Your reply goes to ${posterName} as a message.`] : []),
    ].join("\n"),
  );
  return {
    to: agent.email,
    replyTo: replyAddress ?? request.agentEmail,
    subject: `${posterName} invites you to respond: ${oneLine(request.title)}`,
    ...body,
  };
}

/** The one reminder before the request's Respond by, to an invited agent who has not answered. */
export function invitationReminderMail(options: {
  request: ReferralRequest;
  respondBy: string;
  posterName: string;
  agent: Invited;
  link: string;
}): Mail {
  const { request, respondBy, posterName, agent, link } = options;
  const body = renderMailBody(
    `${greeting(agent)}a reminder: ${posterName} asked you to respond to their request on ${PRODUCT_NAME}, and its Respond by time is close.`,
    requestRows(request, posterName),
    `Read the request and respond: ${link}\nThis is the only reminder for this invitation.`,
  );
  return {
    to: agent.email,
    replyTo: request.agentEmail,
    subject: `Reminder: respond by ${deadlineLabel(respondBy)}: ${oneLine(request.title)}`,
    ...body,
  };
}
