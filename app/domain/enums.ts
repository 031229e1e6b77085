/** The product's enumerations (docs/product.md#constants), with the labels people see. */

export const MARKET_STATES = ["TX", "OK"] as const;
export type MarketState = (typeof MARKET_STATES)[number];
export const MARKET_STATE_NAMES: Record<MarketState, string> = { TX: "Texas", OK: "Oklahoma" };

export const CONTACT_CATEGORIES = [
  { value: "general", label: "General Question" },
  { value: "technical", label: "Technical Support" },
  { value: "account", label: "Account Issues" },
  { value: "payment", label: "Payment/Billing" },
  { value: "referral", label: "Referral Questions" },
  { value: "verification", label: "License Verification" },
  { value: "feedback", label: "Feedback/Suggestions" },
  { value: "partnership", label: "Partnership Inquiry" },
] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number]["value"];
export const CONTACT_CATEGORY_VALUES = CONTACT_CATEGORIES.map((c) => c.value) as [ContactCategory, ...ContactCategory[]];

export function contactCategoryLabel(value: string): string {
  return CONTACT_CATEGORIES.find((c) => c.value === value)?.label ?? value;
}

export const SPECIALTIES = [
  "Residential",
  "First-Time Buyers",
  "Luxury",
  "New Construction",
  "Commercial",
  "Investment",
  "Residential Income",
  "Commercial Income",
  "Farm and Ranch",
  "Land",
  "Auction",
  "Barndominium",
  "Recreational (RV and Glamping)",
] as const;
export type Specialty = (typeof SPECIALTIES)[number];

export const REQUEST_TYPE_VALUES = ["referral", "listing", "buyer"] as const;
export type RequestType = (typeof REQUEST_TYPE_VALUES)[number];

export const PRICE_RANGES = [
  "Under $200k",
  "$200k - $400k",
  "$400k - $600k",
  "$600k - $800k",
  "$800k - $1M",
  "$1M - $2M",
  "$2M - $5M",
  "Over $5M",
] as const;

export const TIMELINES = [
  { value: "immediate", label: "Immediate" },
  { value: "1week", label: "Within 1 week" },
  { value: "2weeks", label: "Within 2 weeks" },
  { value: "1month", label: "Within 1 month" },
  { value: "flexible", label: "Flexible" },
] as const;

export const CONTACT_PREFERENCES = ["email", "phone", "either"] as const;

// Kept as a grid: one code per line would take fifty.
// prettier-ignore
export const US_STATE_CODES = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
  "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
  "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
] as const;
