import { useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

/**
 * `useValidatedForm` for forms that open with values already in them (a saved
 * draft, the current profile): the same validation on blur and input, and the
 * server's last result, errors and kept input, when there is one.
 */
export function usePrefilledForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  schema: Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
  id: string,
  defaultValue: DefaultValue<z.input<Schema>> | undefined,
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}
