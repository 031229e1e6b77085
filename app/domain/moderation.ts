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
