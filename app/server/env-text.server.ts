import { z } from "zod";

/** An optional environment variable: trimmed, and blank counts as unset. */
export const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** A configuration the server cannot start with: printed as one line, without a stack. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
