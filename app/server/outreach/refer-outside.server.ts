/**
 * Referring a request to an agent who is not a member (docs/decisions/0083): offered when fewer
 * than five members fit, a Texas license confirmed in TREC's data before anything is sent, and
 * the invitation to join sent under the same rules as /invite, naming the request's outline.
 */
import { inactiveLicenseMessage, OUTREACH_MESSAGES } from "~/domain/outreach";
import type { Colleague } from "~/domain/outreach-forms";
import { locationLabel } from "~/domain/member-profile";
import { REQUEST_TYPE_LABELS, timelineLabel } from "~/domain/referral-requests/labels";
import type { ReferralRequest } from "~/domain/workbook/tabs";
import { bestFitAgents } from "../matching/best-fit.server";
import type { Services } from "../services.server";
import type { RequestOutline } from "./outreach-mail.server";

/** Fewer than this many members fit: the poster is asked whether they know an agent there. */
const ENOUGH_MEMBERS = 5;

/** Whether fewer than five members fit the request, whoever was invited already. */
export function fewMembersFit(services: Pick<Services, "store" | "bestFit">, request: ReferralRequest, now: Date): boolean {
  return bestFitAgents(services, request, { limit: ENOUGH_MEMBERS, excludeEmails: new Set(), now }).length < ENOUGH_MEMBERS;
}

/** The request's place as its page names it: "Big Lake, TX". */
export function requestArea(request: ReferralRequest): string {
  return locationLabel(request.location, request.state);
}

/** What the mail may say of the request: never the client's name nor its description. */
export function requestOutline(request: ReferralRequest): RequestOutline {
  return {
    area: requestArea(request),
    type: REQUEST_TYPE_LABELS[request.requestType],
    priceRange: request.priceRange,
    timeline: timelineLabel(request.timeline),
  };
}

/** TREC's record of the license, for the poster to confirm: the name, its status and the sponsoring broker. */
type LicenseeRecord = { fullName: string; status: string; sponsor: string; licenseNumber: string };

export type LicenseLookup = { kind: "none" } | { kind: "found"; record: LicenseeRecord } | { kind: "refused"; message: string };

const ACTIVE_STATUSES = new Set(["Current and active", "Probation and active"]);

/**
 * The Texas license's record in TREC's data; "none" when there is nothing to confirm (no
 * number, not Texas, or no data loaded); refused when TREC does not have it or it is not active.
 */
export function lookUpLicensee(services: Pick<Services, "licenses">, colleague: Colleague, now: Date): LicenseLookup {
  if (!colleague.licenseNumber || colleague.licenseState !== "TX" || !services.licenses.dataLoaded()) return { kind: "none" };
  const license = services.licenses.table.lookup(colleague.licenseNumber);
  if (!license) return { kind: "refused", message: OUTREACH_MESSAGES.licenseNotFound };
  const lapsed = license.expiration !== "" && license.expiration < now.toISOString().slice(0, 10);
  if (!ACTIVE_STATUSES.has(license.status)) return { kind: "refused", message: inactiveLicenseMessage(license.status) };
  if (lapsed) return { kind: "refused", message: inactiveLicenseMessage("Expired") };
  const fullName = [license.fullName, license.suffix].filter(Boolean).join(" ");
  return {
    kind: "found",
    record: { fullName, status: license.status, sponsor: license.sponsorName, licenseNumber: license.licenseNumber },
  };
}
