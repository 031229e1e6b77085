import { agentIdFromEmail } from "~/domain/agent-id";
import { expiryNotice, isNewRequest } from "~/domain/referral-requests/expiry";
import { clientTypeLabel, contactPreferenceLabel, requestTags, timelineLabel } from "~/domain/referral-requests/labels";
import { relativeTime } from "~/domain/relative-time";
import type { RequestView } from "~/domain/request-views";
import type { ReferralRequest, RequestResponse } from "~/domain/workbook/tabs";
import { hiddenItemIds, suspendedEmails } from "../moderation/visibility.server";
import type { Services } from "../services.server";

const ANONYMOUS_AGENT = "Anonymous Agent";

/**
 * Whether a response counts among its request's responses: not hidden by staff, and not by
 * a suspended agent. Read from the replica at the call, for one or many responses.
 */
export function countsAsResponse(services: Pick<Services, "store">): (response: RequestResponse) => boolean {
  const hidden = hiddenItemIds(services, "response");
  const suspended = suspendedEmails(services);
  return (response) => !hidden.has(response.id) && !suspended.has(response.fromEmail);
}

/**
 * How many responses a request has: its rows in the Responses tab that count
 * (`countsAsResponse`). Pages show this rather than the row's `responses` cell, which staff
 * may edit and which another instance may not have updated yet.
 */
export function responseCount(services: Pick<Services, "store">, requestId: string): number {
  const responses = services.store.responses.by("requestId", requestId);
  if (responses.length === 0) return 0;
  return responses.filter(countsAsResponse(services)).length;
}

/** What a page shows of a request (see RequestView), for the member viewing it at `now`. */
export function requestView(services: Pick<Services, "store">, request: ReferralRequest, viewerEmail: string, now: Date): RequestView {
  return {
    id: request.id,
    requestType: request.requestType,
    title: request.title,
    location: request.location,
    state: request.state,
    specialty: request.specialty,
    priceRange: request.priceRange,
    clientLabel: request.requestType === "referral" ? clientTypeLabel(request.clientType) : "",
    timelineLabel: request.timeline ? timelineLabel(request.timeline) : "",
    contactPreferenceLabel: request.contactPreference ? contactPreferenceLabel(request.contactPreference) : "",
    listingAddress: request.listingAddress,
    listingMLS: request.listingMLS,
    description: request.description,
    urgent: request.urgent,
    status: request.status,
    agentName: request.agentName.trim() || ANONYMOUS_AGENT,
    agentId: agentIdFromEmail(request.agentEmail),
    isOwn: request.agentEmail === viewerEmail,
    responses: responseCount(services, request.id),
    tags: requestTags(request),
    postedAgo: relativeTime(request.createdAt, now),
    expiryNotice: expiryNotice(request, now),
    isNew: isNewRequest(request, now),
  };
}
