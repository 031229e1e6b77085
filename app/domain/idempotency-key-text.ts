/**
 * A form's key as text, with no schema library: the browser's form code reads it too, and
 * no page loads zod (decision 0024).
 */
const IDEMPOTENCY_KEY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(:retry)?$/i;

/** A form's key as submitted: `retry` when the form came back from a refused submission of it. */
export type IdempotencyKey = { key: string; retry: boolean };

/** The value a form sends again after a refusal: the same key, marked as a retry. */
export function retryValue(submitted: string): string | undefined {
  const match = IDEMPOTENCY_KEY.exec(submitted.trim());
  return match ? `${match[1]!.toLowerCase()}:retry` : undefined;
}

/** The key a submission carries, or undefined when the value is not one. */
export function readIdempotencyKey(value: string): IdempotencyKey | undefined {
  const match = IDEMPOTENCY_KEY.exec(value.trim());
  return match ? { key: match[1]!.toLowerCase(), retry: match[2] !== undefined } : undefined;
}
