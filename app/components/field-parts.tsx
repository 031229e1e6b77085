import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";

/** Any form field's metadata, whatever its value type: these parts only read ids and errors. */
export type AnyField = FieldMetadata<unknown, Record<string, unknown>, string[]>;

/** The first error of a field, placed where its `aria-describedby` points. */
export function FieldError({ field }: { field: AnyField }) {
  return field.errors?.length ? (
    <p id={field.errorId} className="text-sm font-medium text-red-700">
      {field.errors[0]}
    </p>
  ) : null;
}

export function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-xs text-slate-500">
      {children}
    </p>
  );
}

/**
 * A field with an error asks for focus. Of several, the browser focuses the first in the
 * page (only the first autofocus candidate is honoured), so after a refused form the
 * server's page opens on its first invalid field; with JavaScript React focuses a field
 * whose error appears as it is rendered.
 */
export function focusWhenInvalid(field: AnyField): { autoFocus: boolean } {
  return { autoFocus: Boolean(field.errors?.length) };
}

/** Ids of the hint and, when shown, the error: what a control's `aria-describedby` lists. */
export function describedBy(field: AnyField, ...extra: string[]): string {
  return [...extra, field.errors?.length ? field.errorId : undefined].filter(Boolean).join(" ");
}
