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

/** Who refers, seen from the member filling in the form. */
export const REFERRER_OPTIONS = [
  { value: "me", label: "I refer the client" },
  { value: "them", label: "The other agent refers the client" },
] as const;
