/**
 * Referral requests' words (docs/product.md#referral-requests): the labels of types, client types, timelines and
 * contact preferences and the tags a card shows.
 */
import { CONTACT_PREFERENCES, REQUEST_TYPE_VALUES, TIMELINES, type RequestType } from "../enums";
import type { ReferralRequest } from "../workbook/tabs";

export const REQUEST_TYPE_LABELS: Record<RequestType, string> = { referral: "Referral", listing: "Listing", buyer: "Buyer Rep" };

/** The headings of the post form's type choice and of the dashboard's tiles. */
export const REQUEST_TYPE_TITLES: Record<RequestType, string> = {
  referral: "Referral Requests",
  listing: "Listings - Need Buyers",
  buyer: "Buyer Representation",
};

export const CLIENT_TYPES = [
  { value: "buyer", label: "Buyer" },
  { value: "seller", label: "Seller" },
] as const;
export type ClientType = (typeof CLIENT_TYPES)[number]["value"];
export const CLIENT_TYPE_VALUES = ["buyer", "seller"] as const satisfies readonly ClientType[];

export const CONTACT_PREFERENCE_OPTIONS = [
  { value: "email", label: "Email" },
  { value: "phone", label: "Phone" },
  { value: "either", label: "Either" },
] as const satisfies ReadonlyArray<{ value: (typeof CONTACT_PREFERENCES)[number]; label: string }>;

function requestTypeLabel(type: RequestType): string {
  return REQUEST_TYPE_LABELS[type];
}

/** "Buyer" or "Seller"; blank for a value staff typed that is neither. */
export function clientTypeLabel(clientType: string): string {
  return CLIENT_TYPES.find((option) => option.value === clientType.trim().toLowerCase())?.label ?? "";
}

export function timelineLabel(timeline: string): string {
  return TIMELINES.find((option) => option.value === timeline.trim().toLowerCase())?.label ?? timeline;
}

export function contactPreferenceLabel(preference: string): string {
  return CONTACT_PREFERENCE_OPTIONS.find((option) => option.value === preference.trim().toLowerCase())?.label ?? preference;
}

export function parseRequestType(value: string | null | undefined): RequestType | null {
  const type = value?.trim().toLowerCase();
  return REQUEST_TYPE_VALUES.find((candidate) => candidate === type) ?? null;
}

type TaggedFields = Pick<ReferralRequest, "requestType" | "location" | "state" | "specialty" | "priceRange" | "clientType">;

/** The tags: type label, location, state, specialty, price range and, for referrals, Buyer or Seller. */
export function requestTags(request: TaggedFields): string[] {
  const client = request.requestType === "referral" ? clientTypeLabel(request.clientType) : "";
  return [requestTypeLabel(request.requestType), request.location, request.state, request.specialty, request.priceRange, client]
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}

/** Why a request takes no more responses (shown on its page and as the refusal of a late one). */
export const REQUEST_CLOSED = "This request is no longer open for responses.";
