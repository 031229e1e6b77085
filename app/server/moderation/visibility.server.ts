import { isHiddenByStaff, isModeratedKind, latestDecisions, type LatestDecisions, type ReportKind } from "~/domain/moderation";
import type { Agent, Invitation, Review } from "~/domain/workbook/tabs";
import type { Store } from "../store/store.server";

/**
 * What staff and members took off the pages: agents staff suspended, the items staff hid
 * from the Moderation tab (or, before it, a report's itemStatus or the row's own status:
 * docs/decisions/0080), and members blocked either way. Read
 * from the replica on every call (the sets are small), so a refresh that brings a staff
 * edit takes effect on the next page, and nothing member-specific is kept between requests.
 */

/** The replica, as these checks read it (`live-requests`, a member of `Services`, uses them too). */
type Replica = { store: Store };

/** E-mail addresses of the agents staff suspended: everything they wrote is hidden from everyone. */
export function suspendedEmails({ store }: { store: Pick<Store, "agents"> }): Set<string> {
  return new Set(store.agents.by("status", "suspended").map((agent) => agent.email));
}

/** Staff's standing hide and show decisions, from the Moderation tab (small: read whole on each call). */
function staffDecisions({ store }: Replica): LatestDecisions {
  return latestDecisions(store.moderation.all());
}

/**
 * Ids of the items of one kind staff hid: by the item's latest Moderation row, else by a
 * report's itemStatus (the way before the Moderation tab, still read).
 */
export function hiddenItemIds(services: Replica, kind: ReportKind): Set<string> {
  const reported = services.store.reports
    .by("itemStatus", "hidden")
    .filter((report) => report.kind === kind)
    .map((report) => report.itemId);
  if (!isModeratedKind(kind)) return new Set(reported);
  const decided = staffDecisions(services).get(kind) ?? new Map();
  const hidden = new Set(reported.filter((id) => decided.get(id) !== "shown"));
  for (const [id, action] of decided) if (action === "hidden") hidden.add(id);
  return hidden;
}

/** The reviews with the `status` staff's decisions give them, so every page, count and star reads one answer. */
export function asModeratedReviews(services: Replica, reviews: readonly Review[]): readonly Review[] {
  const decisions = staffDecisions(services);
  if (!decisions.has("review")) return reviews;
  return reviews.map((review) => {
    const status = isHiddenByStaff(decisions, "review", review.id, review.status === "hidden") ? "hidden" : "visible";
    return status === review.status ? review : { ...review, status };
  });
}

/** True when staff hid the reply under this review (a Moderation row of kind `reply` naming the review's id). */
export function isReplyHidden(services: Replica, reviewId: string): boolean {
  return isHiddenByStaff(staffDecisions(services), "reply", reviewId, false);
}

/**
 * The invitations with the `status` staff's decisions give them. An invitation shown again
 * after its own cell said hidden is invited, or declined when the agent had answered Not a fit.
 */
export function asModeratedInvitations(services: Replica, invitations: readonly Invitation[]): readonly Invitation[] {
  const decided = staffDecisions(services).get("invitation");
  if (!decided) return invitations;
  return invitations.map((invitation) => {
    const action = decided.get(invitation.id);
    if (action === "hidden" && invitation.status !== "hidden") return { ...invitation, status: "hidden" };
    if (action === "shown" && invitation.status === "hidden")
      return { ...invitation, status: invitation.answeredAt === undefined ? "invited" : "declined" };
    return invitation;
  });
}

/**
 * The members the viewer blocked and the members who blocked the viewer: the two see
 * none of each other's requests and responses, and cannot message each other.
 */
export function blockedBetween({ store }: Replica, viewerEmail: string): Set<string> {
  const emails = new Set<string>();
  for (const block of store.blocks.by("blockerEmail", viewerEmail)) if (block.status === "active") emails.add(block.blockedEmail);
  for (const block of store.blocks.by("blockedEmail", viewerEmail)) if (block.status === "active") emails.add(block.blockerEmail);
  return emails;
}

/** The authors whose requests and responses the viewer does not see: the suspended and the blocked either way. */
export function hiddenAuthorsFor(services: Replica, viewer: Pick<Agent, "email">): Set<string> {
  const hidden = blockedBetween(services, viewer.email);
  for (const email of suspendedEmails(services)) hidden.add(email);
  return hidden;
}

/** True when either member blocked the other. */
export function isBlockedBetween(services: Replica, a: Pick<Agent, "email">, b: Pick<Agent, "email">): boolean {
  return blockedBetween(services, a.email).has(b.email);
}
