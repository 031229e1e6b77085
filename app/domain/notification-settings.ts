/**
 * The notification settings form. Kept apart from notifications.ts, which the workbook's
 * tab definitions import, so the schema library does not come along with them.
 */
import { z } from "zod";
import { MAIL_KINDS, type MailKind } from "./notifications";
import { PUSH_KINDS } from "./push";

/**
 * The settings form: one checkbox named `on` per kind, checked when the member wants it.
 * An unchecked box is not posted at all, so what is missing is what is turned off.
 */
export const notificationSettingsSchema = z.object({
  on: z
    .array(z.enum(MAIL_KINDS, { error: "Please choose from the listed kinds of mail" }))
    .optional()
    .transform((kinds) => kinds ?? []),
  /** One checkbox named `push` per kind with push, checked when the member wants it pushed. */
  push: z
    .array(z.enum(PUSH_KINDS, { error: "Please choose from the listed kinds of push" }))
    .optional()
    .transform((kinds) => kinds ?? []),
  /** Sent only by a page whose push column ran (JavaScript on): without it the stored push choices are kept. */
  pushShown: z.literal("1").optional(),
});

/** The `mailOff` cell for the kinds a member left on: every other kind, in the order of MAIL_KINDS. */
export function mailOffFor(on: readonly MailKind[]): MailKind[] {
  return MAIL_KINDS.filter((kind) => !on.includes(kind));
}
