/**
 * Members' blocks and reports: the report form, the labels staff and members read, and
 * what pages say when a block stands in the way. Pure: the rules live in
 * app/server/moderation.
 */
import { z } from "zod";
import { multiLine, optionalTextField } from "./text";
import { REPORT_KINDS, REPORT_REASONS, type ReportKind, type ReportReason } from "./workbook/tabs";

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
};

export const REPORT_NOTE_MAX = 1000;

export function isReportKind(value: string | null): value is ReportKind {
  return (REPORT_KINDS as readonly (string | null)[]).includes(value);
}

/** The report form: a reason and an optional note (the item is named by the form's address). */
export const reportSchema = z.object({
  reason: z.enum(REPORT_REASONS, { error: "Please choose a reason" }),
  note: multiLine(optionalTextField(REPORT_NOTE_MAX, `Please keep the note under ${REPORT_NOTE_MAX.toLocaleString("en-US")} characters`)),
});

export type ReportForm = z.infer<typeof reportSchema>;

/** The address of the report form for one item. */
export function reportPath(kind: ReportKind, id: string): string {
  return `/report?${new URLSearchParams({ kind, id })}`;
}

export const ALREADY_REPORTED = "You already reported this. Staff will look at it; there is no need to report it again.";
export const REPORT_SENT = "Thank you. Your report was sent to staff.";
export const BLOCKED_CANNOT_MESSAGE = "You can't message this agent: one of you has blocked the other.";
export const CANNOT_BLOCK_SELF = "You can't block yourself.";
