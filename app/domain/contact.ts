import { z } from "zod";
import { CONTACT_CATEGORY_VALUES, MARKET_STATES } from "./enums";
import { idempotencyKeyField } from "./idempotency-key";
import { emailField } from "./registration";
import { multiLine } from "./text";

/** Blank optional inputs arrive as undefined from conform; store the default instead. */
export const NOT_PROVIDED = "Not provided";

export const contactSchema = z.object({
  idempotencyKey: idempotencyKeyField,
  name: z
    .string({ error: "Full name is required" })
    .trim()
    .min(1, "Full name is required")
    .max(200, "Please keep the name under 200 characters"),
  email: emailField,
  category: z.enum(CONTACT_CATEGORY_VALUES, { error: "Please choose a category" }),
  subject: z
    .string({ error: "Subject is required" })
    .trim()
    .min(1, "Subject is required")
    .max(200, "Please keep the subject under 200 characters"),
  message: multiLine(
    z
      .string({ error: "Message is required" })
      .trim()
      .min(1, "Message is required")
      .max(5000, "Please keep the message under 5,000 characters"),
  ),
  agentLicense: z.string().trim().max(50, "Please keep the license number under 50 characters").optional(),
  state: z.enum(MARKET_STATES, { error: "Please choose TX or OK" }).optional(),
});

export type ContactMessage = z.infer<typeof contactSchema>;
