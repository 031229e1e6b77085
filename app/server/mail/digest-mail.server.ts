import type { DigestSelection } from "~/domain/digest";
import { firstName } from "~/domain/member-profile";
import { PRODUCT_NAME } from "~/domain/product";
import { REQUEST_TYPE_LABELS } from "~/domain/referral-requests/labels";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import { escapeHtml } from "./html.server";
import type { Mail } from "./mailer.server";

const postedDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "America/Chicago" });

type DigestNotice = {
  member: Pick<Agent, "fullName" | "email" | "state">;
  selection: DigestSelection;
  /** The address of each request's page. */
  requestUrl: (request: ReferralRequest) => string;
  /** The requests page, filtered to the member's market. */
  listUrl: string;
};

function summaryOf(request: ReferralRequest): string {
  const place = [request.location.trim(), request.state].filter(Boolean).join(", ");
  return [
    REQUEST_TYPE_LABELS[request.requestType],
    place,
    request.specialty.trim(),
    `posted ${postedDay.format(new Date(request.createdAt))}`,
  ]
    .filter(Boolean)
    .join(" · ");
}

/**
 * The Monday digest: the week's new requests in the member's market, newest first, each
 * with its address, and the filtered requests page for the rest. Request titles are
 * members' text: escaped in the HTML, plain in the text part.
 */
export function digestMail({ member, selection, requestUrl, listUrl }: DigestNotice): Mail {
  const { requests, total } = selection;
  const name = firstName(member.fullName);
  const intro = `${name ? `Hello ${name}, ` : ""}${total === 1 ? "1 new request was" : `${total} new requests were`} posted in your market on ${PRODUCT_NAME} last week.`;
  const more = total > requests.length ? `${total - requests.length} more are on the site. ` : "";
  const outro = `${more}See every open request in your market: ${listUrl}`;
  const note = "You get this digest on Mondays when there is something new in your market.";
  const title = (request: ReferralRequest) => request.title.replace(/\s+/g, " ").trim() || "Untitled request";

  const text = [
    intro,
    "",
    ...requests.flatMap((request) => [`${title(request)}`, `  ${summaryOf(request)}`, `  ${requestUrl(request)}`, ""]),
    outro,
    "",
    note,
  ].join("\n");
  const items = requests
    .map(
      (request) =>
        `<li style="margin:0 0 12px"><a href="${escapeHtml(requestUrl(request))}">${escapeHtml(title(request))}</a><br><span style="color:#555">${escapeHtml(summaryOf(request))}</span></li>`,
    )
    .join("");
  const html =
    `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5"><p>${escapeHtml(intro)}</p>` +
    `<ul style="padding-left:20px">${items}</ul>` +
    `<p>${escapeHtml(more)}<a href="${escapeHtml(listUrl)}">See every open request in your market</a>.</p>` +
    `<p style="color:#555">${escapeHtml(note)}</p></div>`;
  const subject = `${total === 1 ? "1 new referral request" : `${total} new referral requests`} in your market last week`;
  return { to: member.email, subject, text, html };
}
