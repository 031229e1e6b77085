import type { ReportKind } from "~/domain/moderation";
import type { Agent } from "~/domain/workbook/tabs";
import type { Store } from "../store/store.server";

/**
 * What staff and members took off the pages: agents staff suspended, messages and
 * responses staff hid from the Reports tab, and members blocked either way. Read
 * from the replica on every call (the sets are small), so a refresh that brings a staff
 * edit takes effect on the next page, and nothing member-specific is kept between requests.
 */

/** The replica, as these checks read it (`live-requests`, a member of `Services`, uses them too). */
type Replica = { store: Store };

/** E-mail addresses of the agents staff suspended: everything they wrote is hidden from everyone. */
export function suspendedEmails({ store }: { store: Pick<Store, "agents"> }): Set<string> {
  return new Set(store.agents.by("status", "suspended").map((agent) => agent.email));
}

/** Ids of the items of one kind staff hid by setting a report's itemStatus to hidden. */
export function hiddenItemIds({ store }: Replica, kind: ReportKind): Set<string> {
  return new Set(
    store.reports
      .by("itemStatus", "hidden")
      .filter((report) => report.kind === kind)
      .map((report) => report.itemId),
  );
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
