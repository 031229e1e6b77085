/**
 * Members' blocks and reports: the kinds and reasons of a report, the labels staff and
 * members read, and what pages say when a block stands in the way. Pure and without zod,
 * so pages can show them (the report form's schema is in report-form.ts); the rules live
 * in app/server/moderation.
 */

export const REPORT_KINDS = ["request", "response", "message", "profile", "review"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_REASONS = ["spam", "harassment", "fake-license", "inappropriate", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: "Spam",
  harassment: "Harassment",
  "fake-license": "Fake license or profile",
  inappropriate: "Inappropriate content",
  other: "Other",
};

export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  request: "request",
  response: "response",
  message: "message",
  profile: "profile",
  review: "review",
};

export const REPORT_NOTE_MAX = 1000;

export function isReportKind(value: string | null): value is ReportKind {
  return (REPORT_KINDS as readonly (string | null)[]).includes(value);
}

/** The address of the report form for one item. */
export function reportPath(kind: ReportKind, id: string): string {
  return `/report?${new URLSearchParams({ kind, id })}`;
}

export const ALREADY_REPORTED = "You already reported this. Staff will look at it; there is no need to report it again.";
export const BLOCKED_CANNOT_MESSAGE = "You can't message this agent: one of you has blocked the other.";
export const BLOCKED_CANNOT_REFER =
  "You can't propose, change or sign a referral agreement with this agent: one of you has blocked the other.";
export const CANNOT_BLOCK_SELF = "You can't block yourself.";

/**
 * What staff hide or show from the Moderation tab, whichever store holds the item's rows
 * (docs/decisions/0080): a message, a response, a published review, the reply under a
 * review (the Reviews row's `reply`, by that row's id), an invitation.
 */
export const MODERATED_KINDS = ["message", "response", "review", "reply", "invitation"] as const;
export type ModeratedKind = (typeof MODERATED_KINDS)[number];
export const MODERATION_ACTIONS = ["hidden", "shown"] as const;
type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** One staff decision as the Moderation tab holds it. */
export type StaffDecision = { kind: ModeratedKind; itemId: string; action: ModerationAction; createdAt: string };

/** Each item's standing decision, by kind and then by the item's id. */
export type LatestDecisions = ReadonlyMap<ModeratedKind, ReadonlyMap<string, ModerationAction>>;

export function isModeratedKind(kind: string): kind is ModeratedKind {
  return (MODERATED_KINDS as readonly string[]).includes(kind);
}

/**
 * The decision that stands for each item: its latest by `createdAt`, and of two at the same
 * time the one lower in the tab. Nothing is ever written back, so every instance reading the
 * same rows agrees, and undoing is one more row (or the cell changed back).
 */
export function latestDecisions(rows: readonly StaffDecision[]): LatestDecisions {
  const latest = new Map<ModeratedKind, Map<string, StaffDecision>>();
  for (const row of rows) {
    const ofKind = latest.get(row.kind) ?? new Map<string, StaffDecision>();
    latest.set(row.kind, ofKind);
    const before = ofKind.get(row.itemId);
    if (!before || row.createdAt >= before.createdAt) ofKind.set(row.itemId, row);
  }
  return new Map([...latest].map(([kind, rowsById]) => [kind, new Map([...rowsById].map(([id, row]) => [id, row.action]))]));
}

/**
 * Whether staff hid the item: its latest Moderation row decides; with none, the older place
 * for the same decision (a report's `itemStatus`, the review's or invitation's `status`).
 */
export function isHiddenByStaff(decisions: LatestDecisions, kind: ModeratedKind, itemId: string, hiddenWithoutDecision: boolean): boolean {
  const action = decisions.get(kind)?.get(itemId);
  return action === undefined ? hiddenWithoutDecision : action === "hidden";
}
