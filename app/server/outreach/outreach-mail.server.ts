import { PRODUCT_NAME } from "~/domain/product";
import { renderMailBody, type MailRow } from "../mail/html.server";
import type { Mail } from "../mail/mailer.server";

/** What a request's invitation may say of it: never the client's name nor the request's description (docs/decisions/0083). */
export type RequestOutline = { area: string; type: string; priceRange: string; timeline: string };

function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

/**
 * The one mail an invited colleague gets from the network in the member's name. The footer
 * (why they got it, "Don't invite me again") is added by `withStopInviting`, by the caller.
 */
export function outreachMail(options: {
  inviter: { fullName: string; email: string };
  invitee: { name: string; email: string };
  note: string | undefined;
  link: string;
  request?: RequestOutline;
  reminder?: boolean;
}): Mail {
  const { inviter, invitee, note, link, request, reminder } = options;
  const hello = firstName(invitee.name) ? `Hello ${firstName(invitee.name)}, ` : "";
  const intro = request
    ? `${hello}${inviter.fullName} has a client in ${request.area} and would like to refer them to you. ${PRODUCT_NAME} is the members-only referral network for real-estate agents in Texas and Oklahoma.`
    : `${hello}${inviter.fullName} invites you to join ${PRODUCT_NAME}, the members-only referral network for real-estate agents in Texas and Oklahoma.`;
  const rows: MailRow[] = [
    ...(note ? [[`${firstName(inviter.fullName) || "Their"} note`, note] as MailRow] : []),
    ...(request
      ? ([
          ["Area", request.area],
          ["Type", request.type],
          ["Price range", request.priceRange || "Not specified"],
          ["Timeline", request.timeline || "Not specified"],
        ] as MailRow[])
      : []),
  ];
  const outro = [
    `${request ? "Join to see the request and respond" : "Join the network"} (your name and e-mail are filled in): ${link}`,
    "Membership is free. The link works for 30 days.",
  ].join("\n");
  const subject = request
    ? `${inviter.fullName} would like to refer a client in ${request.area} to you`
    : `${inviter.fullName} invites you to ${PRODUCT_NAME}`;
  return {
    to: invitee.email,
    replyTo: inviter.email,
    subject: reminder ? `Reminder: ${subject}` : subject,
    ...renderMailBody(intro, rows, outro),
  };
}

/** Tells a poster that the agent they invited from their request joined and is now invited to it. */
export function outreachJoinedMail(options: {
  poster: { fullName: string; email: string };
  agentName: string;
  requestTitle: string;
  link: string;
}): Mail {
  const { poster, agentName, requestTitle, link } = options;
  return {
    to: poster.email,
    subject: `${agentName} joined and is invited to your request`,
    ...renderMailBody(
      `${firstName(poster.fullName) ? `Hello ${firstName(poster.fullName)}, ` : ""}${agentName}, whom you invited from your request, joined ${PRODUCT_NAME} and was approved. They are now invited to respond to it.`,
      [["Request", requestTitle]],
      `See your request: ${link}`,
    ),
  };
}
