import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { z } from "zod";

/** Parses a posted form with the same schema the page validates with in the browser. */
export async function parseForm<Schema extends z.ZodType>(request: Request, schema: Schema) {
  return parseWithZod(await request.formData(), { schema });
}

/**
 * The answer to bad input: status 400, the spec's messages, the input echoed
 * back so nothing typed is lost, minus any field named in hideFields (passwords).
 */
export function rejectSubmission(
  submission: Submission<unknown>,
  options: { formErrors?: string[]; hideFields?: string[]; status?: number } = {},
) {
  const { formErrors, hideFields, status = 400 } = options;
  return data(submission.reply({ formErrors, hideFields }), { status });
}
