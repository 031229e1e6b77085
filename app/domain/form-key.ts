import { z } from "zod";

const FORM_KEY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(:retry)?$/i;

/** A form's key as submitted: `retry` when the form came back from a refused submission of it. */
export type FormKey = { key: string; retry: boolean };

/** The value a form sends again after a refusal: the same key, marked as a retry. */
export function retryValue(submitted: string): string | undefined {
  const match = FORM_KEY.exec(submitted.trim());
  return match ? `${match[1]!.toLowerCase()}:retry` : undefined;
}

/**
 * The hidden `formKey` of a form whose submission adds a row (docs/decisions/0032): made by
 * the server when it renders the form and sent back with every submission of that form, so
 * a submission sent again after an answer that was lost stores one row. Anything else sent
 * in its place is ignored (the row then gets a fresh id, as before).
 */
export const formKeyField = z
  .string()
  .transform((value): FormKey | undefined => {
    const match = FORM_KEY.exec(value.trim());
    return match ? { key: match[1]!.toLowerCase(), retry: match[2] !== undefined } : undefined;
  })
  .optional();
