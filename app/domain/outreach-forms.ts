/**
 * The form of `/invite` (docs/decisions/0082): up to ten colleagues, each a name and an
 * e-mail with an optional license number and state, and one optional personal line. Rows left
 * wholly blank are dropped; a row with anything typed must have its name and e-mail.
 */
import { z } from "zod";
import { MARKET_STATES } from "./enums";
import { COLLEAGUES_PER_FORM, OUTREACH_MESSAGES } from "./outreach";
import { emailField } from "./registration";
import { multiLine, optionalTextField, requiredTextField } from "./text";

const colleagueSchema = z.object({
  name: requiredTextField(OUTREACH_MESSAGES.nameRequired, 100, OUTREACH_MESSAGES.nameTooLong),
  email: emailField,
  licenseNumber: optionalTextField(50, OUTREACH_MESSAGES.licenseTooLong),
  licenseState: z.enum(MARKET_STATES).optional(),
});

export type Colleague = z.infer<typeof colleagueSchema>;

/** A row left wholly blank is one of the form's spare lines, not a colleague. */
const isBlankRow = (row: unknown) =>
  typeof row !== "object" || row === null || Object.values(row).every((value) => typeof value !== "string" || value.trim() === "");

const colleagueRow = z.preprocess((row) => (isBlankRow(row) ? undefined : row), colleagueSchema.optional());

/** The address typed in a row, as the schema compares it; undefined for a row without one. */
function typedEmail(row: unknown): string | undefined {
  const email: unknown = typeof row === "object" && row !== null ? (row as { email?: unknown }).email : undefined;
  return typeof email === "string" && email.trim() ? email.trim().toLowerCase() : undefined;
}

/** Whether the row's address was typed in an earlier row too. */
function repeatsEarlierRow(rows: readonly unknown[], index: number): boolean {
  const email = typedEmail(rows[index]);
  return email !== undefined && rows.slice(0, index).some((row) => typedEmail(row) === email);
}

/**
 * The colleagues typed, messages kept at each row's place in the form (blank rows are
 * dropped after the checks). A repeated address is named even when another row has a
 * mistake, so every message shows at once.
 */
const colleaguesField = z.preprocess(
  (rows) => (Array.isArray(rows) ? Array.from(rows) : []),
  Array.from({ length: COLLEAGUES_PER_FORM }, (_, index) => index)
    .reduce(
      (schema, index) =>
        schema.refine((rows) => !repeatsEarlierRow(rows, index), {
          message: OUTREACH_MESSAGES.duplicate,
          path: [index, "email"],
          when: (payload) => Array.isArray(payload.value),
        }),
      z
        .array(colleagueRow)
        .max(COLLEAGUES_PER_FORM, OUTREACH_MESSAGES.tooManyColleagues)
        .refine((rows) => rows.some((row) => row !== undefined), OUTREACH_MESSAGES.noColleague),
    )
    .transform((rows) => rows.filter((row): row is Colleague => row !== undefined)),
);

export const inviteColleaguesSchema = z.object({
  colleagues: colleaguesField,
  note: multiLine(optionalTextField(500, OUTREACH_MESSAGES.noteTooLong)),
});

/** The member's one reminder of an invitation they sent. */
export const remindSchema = z.object({ intent: z.literal("remind"), outreachId: z.string().trim().min(1).max(100) });

/**
 * "Know an agent in ...?" on a poster's request page (docs/decisions/0083): one agent who is
 * not a member. `confirmed` is sent by the second step: the license number whose TREC record the poster saw.
 */
export const referOutsideSchema = colleagueSchema.extend({
  confirmed: z.string().trim().max(50).optional(),
});
