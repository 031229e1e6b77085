/** The message box's rule (docs/product.md#messages): the schema the Messages page validates a new message with. */
import { z } from "zod";
import { idempotencyKeyField } from "./idempotency-key";
import { multiLine } from "./text";

const MESSAGE_MAX_LENGTH = 5_000;

export const MESSAGE_REQUIRED = "Please enter a message";
export const MESSAGE_TOO_LONG = "Please keep your message to 5,000 characters or fewer";

function lineBreaksAsLf(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/**
 * The message box. Browsers post line breaks as CR LF; they are stored as LF so a
 * message reads and counts the same wherever it was typed.
 */
export const messageSchema = z.object({
  idempotencyKey: idempotencyKeyField,
  text: multiLine(
    z
      .string({ error: MESSAGE_REQUIRED })
      .trim()
      .min(1, MESSAGE_REQUIRED)
      .refine((text) => lineBreaksAsLf(text).length <= MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG)
      .transform(lineBreaksAsLf),
  ),
});
