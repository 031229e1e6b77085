/**
 * What each push says: the least the notification needs (docs/decisions/0067). A message's
 * text is cut to the mail's 100-character preview; no client name and no e-mail address
 * ever goes into a payload, which lands on a lock screen.
 */
import { deadlineLabel } from "~/domain/invitations";
import { conversationPath, previewText } from "~/domain/messages";
import { reviewPath } from "~/domain/reviews";
import type { PushNotice } from "~/domain/push-notice";
import type { Referral, ReferralRequest, Review } from "~/domain/workbook/tabs";

function nameOf(fullName: string): string {
  return fullName.replace(/\s+/g, " ").trim() || "A member";
}

function requestTitle(request: Pick<ReferralRequest, "title">): string {
  return previewText(request.title);
}

export function referralPath(referralId: string): string {
  return `/referrals/${encodeURIComponent(referralId)}`;
}

function requestPath(requestId: string): string {
  return `/referral-requests/${encodeURIComponent(requestId)}`;
}

export function messageNotice(options: { senderName: string; text: string; conversationId: string }): PushNotice {
  return {
    title: `New message from ${nameOf(options.senderName)}`,
    body: previewText(options.text),
    url: conversationPath(options.conversationId),
    tag: `message:${options.conversationId}`,
  };
}

export function invitationNotice(options: { posterName: string; request: ReferralRequest }): PushNotice {
  const { posterName, request } = options;
  return {
    title: `${nameOf(posterName)} invites you to respond`,
    body: request.respondBy ? `${requestTitle(request)} · Respond by ${deadlineLabel(request.respondBy)}` : requestTitle(request),
    url: requestPath(request.id),
    tag: `invitation:${request.id}`,
  };
}

export function respondByNotice(options: { request: ReferralRequest; respondBy: string }): PushNotice {
  const { request, respondBy } = options;
  return {
    title: `Respond by ${deadlineLabel(respondBy)}`,
    body: `You have not answered yet: ${requestTitle(request)}`,
    url: requestPath(request.id),
    tag: `invitation:${request.id}`,
  };
}

/** A proposal, or changed terms, now waiting for the recipient's signature. */
export function signatureNotice(options: {
  referral: Pick<Referral, "id">;
  actorName: string;
  change: "proposed" | "terms-changed" | "accepted";
}): PushNotice {
  const { referral, actorName, change } = options;
  const what = {
    proposed: `${nameOf(actorName)} proposed a referral agreement`,
    "terms-changed": `${nameOf(actorName)} changed the terms of a referral agreement`,
    accepted: `${nameOf(actorName)} signed a referral agreement`,
  }[change];
  return { title: "Waiting for your signature", body: what, url: referralPath(referral.id), tag: `referral:${referral.id}` };
}

export function brokerSignoffNotice(options: { referral: Pick<Referral, "id">; brokerName: string }): PushNotice {
  const { referral, brokerName } = options;
  return {
    title: "Your broker signed off",
    body: `${nameOf(brokerName)} approved your referral agreement.`,
    url: referralPath(referral.id),
    tag: `referral:${referral.id}`,
  };
}

/** A review of the member just published: who wrote it and its overall stars, never its text nor the client. */
export function reviewPublishedNotice(options: { review: Pick<Review, "referralId" | "overall">; reviewerName: string }): PushNotice {
  const { review, reviewerName } = options;
  return {
    title: "A review of you is published",
    body: previewText(`${nameOf(reviewerName)} rated you ${review.overall ?? 0} of 5 stars.`),
    url: reviewPath(review.referralId),
    tag: `review:${review.referralId}`,
  };
}
