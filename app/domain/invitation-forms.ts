/** The schemas of the Respond by field and the "Not a fit" form (docs/decisions/0047). */
import { z } from "zod";
import { NOT_A_FIT_REASON_MAX, RESPOND_BY_MAX_HOURS, RESPOND_BY_MIN_HOURS } from "./invitations";
import { multiLine, optionalTextField } from "./text";

const RESPOND_BY_MESSAGE = `Please enter a number of hours from ${RESPOND_BY_MIN_HOURS} to ${RESPOND_BY_MAX_HOURS}`;

/** The request forms' optional "Respond by": whole hours from now; blank sets no deadline. */
export const respondByHoursField = z
  .number({ error: RESPOND_BY_MESSAGE })
  .int(RESPOND_BY_MESSAGE)
  .min(RESPOND_BY_MIN_HOURS, RESPOND_BY_MESSAGE)
  .max(RESPOND_BY_MAX_HOURS, RESPOND_BY_MESSAGE)
  .optional();

/** The invited agent's "Not a fit", with an optional reason the poster reads. */
export const notAFitSchema = z.object({
  reason: multiLine(optionalTextField(NOT_A_FIT_REASON_MAX, `Please keep the reason to at most ${NOT_A_FIT_REASON_MAX} characters`)),
});
