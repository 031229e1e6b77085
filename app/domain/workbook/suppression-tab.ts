/**
 * Addresses the network never invites again: listed in the workbook (`tabs.ts`) like every
 * other tab. A row is final: no member's invitation overrides it (docs/staff-guide.md).
 */
import { choice, email, requiredText, text, time } from "./columns";
import { defineTab } from "./define-tab";

/**
 * asked: the person's own "don't invite me again"; bounce and complaint: reported by the mail
 * provider; staff: typed by staff.
 */
const SUPPRESSION_REASONS = ["asked", "bounce", "complaint", "staff"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const SUPPRESSIONS_TAB = defineTab({
  name: "Suppressions",
  appendOnly: false,
  columns: {
    id: requiredText(),
    email: email({ required: true }),
    reason: choice(SUPPRESSION_REASONS, "staff"),
    /** Where it came from, e.g. the provider's event, or staff's words. */
    note: text(),
    createdAt: time(),
  },
  indexes: {
    email: (suppression) => suppression.email,
  },
  // Two instances that both found an address's claim abandoned add its row under the claim's id: one record.
  mergeDuplicates: (first) => first,
});
