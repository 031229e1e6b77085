/** The product's name, chosen once; its about page lives at /why-{PRODUCT_SLUG}. */
export const PRODUCT_NAME = "Red River Referrals";
const PRODUCT_SLUG = "red-river-referrals";
export const WHY_PATH = `/why-${PRODUCT_SLUG}`;
export const PRODUCT_TAGLINE = "The verified referral network for Texas and Oklahoma real-estate agents.";

export const FOUNDER_CAP = 100;
export const COPYRIGHT_YEAR = 2024;

/**
 * Founder spots still open. A spot is held by each agent row with the founder membership
 * that staff have not rejected: an applicant keeps theirs while the license is checked,
 * a rejected one gives it back. VIP and member rows hold none. (docs/decisions/0012)
 */
export function founderSpotsLeft(agents: Iterable<{ membershipType: string; status: string }>): number {
  let held = 0;
  for (const agent of agents) if (agent.membershipType === "founder" && agent.status !== "rejected") held += 1;
  return Math.max(0, FOUNDER_CAP - held);
}
