import { z } from "zod";

/** An optional environment variable: trimmed, and blank counts as unset. */
export const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();
