/** The report form's schema: a reason and an optional note (the item is named by the form's address). */
import { z } from "zod";
import { idempotencyKeyField } from "./idempotency-key";
import { REPORT_NOTE_MAX, REPORT_REASONS } from "./moderation";
import { multiLine, optionalTextField } from "./text";

export const reportSchema = z.object({
  idempotencyKey: idempotencyKeyField,
  reason: z.enum(REPORT_REASONS, { error: "Please choose a reason" }),
  note: multiLine(optionalTextField(REPORT_NOTE_MAX, `Please keep the note under ${REPORT_NOTE_MAX.toLocaleString("en-US")} characters`)),
});

export type ReportForm = z.infer<typeof reportSchema>;
