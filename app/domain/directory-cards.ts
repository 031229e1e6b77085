/** What the directory pages and profiles show of an agent, and where their buttons lead (docs/product.md#profiles-and-directories). */
import type { MembershipType } from "./workbook/tabs";
import { PRODUCT_NAME } from "./product";

export const INDEPENDENT_AGENT = "Independent Agent";
export const NO_BIO = "No bio available";
/** The not-found wording on the agent profile, and on the messages page for an unknown recipient; agents who are pending or rejected are not found either. */
export const AGENT_NOT_FOUND = "Agent not found";
/** The member directory's bio preview stops near this many characters. */
const BIO_PREVIEW_LENGTH = 160;

/** The profile's membership line: the type in capitals, "MEMBER" when there is none. */
export function membershipTypeLabel(type: MembershipType | ""): string {
  return type ? type.toUpperCase() : "MEMBER";
}

/** The start of a bio, cut at a word with an ellipsis when longer than `length`. */
export function bioPreview(bio: string, length = BIO_PREVIEW_LENGTH): string {
  const text = bio.trim().replace(/\s+/g, " ");
  if (text.length <= length) return text;
  const cut = text.slice(0, length + 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > length / 2 ? cut.slice(0, lastSpace) : cut.slice(0, length)).replace(/[\s,.;:!?-]+$/, "")}…`;
}

export function agentProfilePath(agentId: string): string {
  return `/agent/${encodeURIComponent(agentId)}`;
}

/** The messages page with the agent as the recipient of a new conversation. */
export function messageAgentPath(agentId: string): string {
  return `/messages?to=${encodeURIComponent(agentId)}`;
}

/** A members-only page for a visitor: the login page, which returns to it afterwards. */
export function loginFirstPath(path: string): string {
  return `/member-login?${new URLSearchParams({ redirectTo: path })}`;
}

type Contact = { fullName: string; email: string };

/**
 * The member directory's Contact link: a new mail to the agent, subject and body filled
 * in. Each part is percent-encoded on its own (spaces as %20, not "+", which mail
 * programs would show), so names with & ? # or line breaks cannot break the link.
 */
export function contactMailto(agent: Contact, sender: Contact & { brokerage: string }): string {
  const greeting = agent.fullName.trim().split(/\s+/)[0] || "there";
  const signature = [sender.fullName.trim(), sender.brokerage.trim(), sender.email.trim()].filter(Boolean).join("\r\n");
  const subject = `Referral inquiry from ${sender.fullName.trim() || "a fellow agent"} (${PRODUCT_NAME})`;
  const body = [
    `Hi ${greeting},`,
    "",
    `I found your profile in the ${PRODUCT_NAME} member directory and would like to connect with you about a referral.`,
    "",
    "Best regards,",
    signature,
  ].join("\r\n");
  const address = encodeURIComponent(agent.email.trim()).replace(/%40/g, "@");
  return `mailto:${address}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
