import type { z } from "zod";
import { BOT_REFUSAL_MESSAGE, BOT_TRAP_FIELDS } from "~/domain/bot-trap";
import { sign, verifySignature } from "./auth/signing.server";
import type { Config } from "./config.server";
import { parseSubmission, readForm, rejectSubmission } from "./forms.server";

/**
 * The bot trap of the anonymous forms (docs/decisions/0058): a honeypot a person never
 * sees, and the time the page rendered the form, signed so a script cannot claim an
 * earlier one. A form whose honeypot holds anything, or that comes back sooner than
 * FORM_MIN_FILL_SECONDS after it was rendered, is refused before anything is stored.
 */

type TrapConfig = Pick<Config, "sessionSecrets" | "formMinFillSeconds">;

/** Which form the time was signed for: a time from the contact page does not open the registration. */
export type TrappedForm = "contact" | "register";

const PURPOSE = "form-started";

/** The value of the form's start-time field: the time now, signed for this form. */
export function formStartedAt(config: Pick<Config, "sessionSecrets">, form: TrappedForm, now = Date.now()): string {
  return `${now}.${sign(config.sessionSecrets, PURPOSE, `${form}:${now}`)}`;
}

/** True when the form's start time is genuine and at least the minimum fill time old. */
function filledLikeAPerson(config: TrapConfig, form: TrappedForm, value: FormDataEntryValue | null, now: number): boolean {
  // No minimum (the browser tests fill forms in milliseconds): only the honeypot is checked.
  if (config.formMinFillSeconds === 0) return true;
  if (typeof value !== "string") return false;
  const [time = "", signature = "", ...rest] = value.split(".");
  if (rest.length > 0 || !/^\d{1,15}$/.test(time)) return false;
  if (!verifySignature(config.sessionSecrets, PURPOSE, `${form}:${time}`, signature)) return false;
  return now - Number(time) >= config.formMinFillSeconds * 1000;
}

function caughtByTrap(config: TrapConfig, form: TrappedForm, formData: FormData): boolean {
  const honeypot = formData.get(BOT_TRAP_FIELDS.honeypot);
  if (typeof honeypot === "string" && honeypot !== "") return true;
  return !filledLikeAPerson(config, form, formData.get(BOT_TRAP_FIELDS.startedAt), Date.now());
}

/**
 * Reads and parses a posted anonymous form as parseForm does, and checks its trap:
 * `refusal` is the answer for a caught submission (400, a neutral message that names
 * neither trap, the input kept), else null.
 */
export async function parseTrappedForm<Schema extends z.ZodType>(request: Request, config: TrapConfig, form: TrappedForm, schema: Schema) {
  const read = await readForm(request);
  const submission = parseSubmission(read.formData, schema, read.refusal);
  const refusal =
    read.refusal === null && caughtByTrap(config, form, read.formData)
      ? rejectSubmission(submission, { status: 400, formErrors: [BOT_REFUSAL_MESSAGE] })
      : null;
  return { submission, refusal };
}
