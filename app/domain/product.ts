/** The product's name, chosen once; its about page lives at /why-{PRODUCT_SLUG}. */
export const PRODUCT_NAME = "Red River Referrals";
export const PRODUCT_SLUG = "red-river-referrals";
export const WHY_PATH = `/why-${PRODUCT_SLUG}`;
export const PRODUCT_TAGLINE = "The verified referral network for Texas and Oklahoma real-estate agents.";

export const FOUNDER_CAP = 100;
export const COPYRIGHT_YEAR = 2024;

/** Founder spots still open: every registered agent row takes one, whatever its status. */
export function founderSpotsLeft(registeredAgents: number): number {
  return Math.max(0, FOUNDER_CAP - registeredAgents);
}
