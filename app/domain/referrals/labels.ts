/**
 * The words the referral forms and pages show for the agreement's choices. Kept apart from
 * the forms' schemas (agreement.ts) so a page's component can show them without bringing
 * zod into the browser.
 */
import type { Referral } from "../workbook/tabs";

export type ReferralSide = Referral["side"];

export const SIDE_LABELS: Record<ReferralSide, string> = { buyer: "Buyer", seller: "Seller", landlord: "Landlord", tenant: "Tenant" };

export const SIDE_OPTIONS: ReadonlyArray<{ value: ReferralSide; label: string }> = (Object.keys(SIDE_LABELS) as ReferralSide[]).map(
  (value) => ({ value, label: SIDE_LABELS[value] }),
);
export const FEE_TYPE_OPTIONS = [
  { value: "percent", label: "Percentage of gross commission" },
  { value: "flat", label: "Flat amount" },
] as const;

export type BrokerChoice = "attested" | "requested";

/** How a signing agent's broker signs off: the agent attests their authority, or asks the broker by mail. */
export const BROKER_CHOICE_OPTIONS: ReadonlyArray<{ value: BrokerChoice; label: string }> = [
  { value: "attested", label: "My broker authorizes me to sign referral agreements (they will be sent a copy)" },
  { value: "requested", label: "Ask my broker to approve" },
];

/** Who refers, seen from the member filling in the form. */
export const REFERRER_OPTIONS = [
  { value: "me", label: "I refer the client" },
  { value: "them", label: "The other agent refers the client" },
] as const;

/** The short reference a person reads and says for an agreement or a request: "No. C27949CB", from its id. */
export function shortReference(id: string): string {
  return `No. ${id.replace(/-/g, "").slice(0, 8).toUpperCase()}`;
}

/**
 * The document's heading, above the agreement's text: its reference and the request's title
 * as the request reads now. The title stays out of the signed text, so editing a request
 * never changes what was signed.
 */
export function agreementHeading(referralId: string, requestTitle: string | undefined) {
  return {
    title: `Referral Agreement ${shortReference(referralId)}`,
    request: requestTitle ? `From the request “${requestTitle}”` : null,
  };
}
