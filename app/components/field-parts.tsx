import type { ReactNode } from "react";

/**
 * One form field as the server last answered it: its ids (derived from the form's id,
 * as `<form id>-<name>`), the messages the server gave it and the value it opens with.
 */
export type AnyField = {
  name: string;
  id: string;
  /** The form's id: controls carry it in their `form` attribute. */
  formId: string;
  errorId: string;
  descriptionId: string;
  errors: string[] | undefined;
  /** The input kept from the last refused post, else the form's default (a draft, the current profile). */
  initialValue: string | string[] | undefined;
};

/** The first error of a field, placed where its `aria-describedby` points. */
export function FieldError({ field }: { field: AnyField }) {
  return field.errors?.length ? (
    <p id={field.errorId} className="text-sm font-medium text-red-700">
      {field.errors[0]}
    </p>
  ) : null;
}

/** Small text on the tinted cards: slate-500 sits near 4.5:1 there, slate-600 passes AA with room to spare. */
export function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-xs text-slate-600">
      {children}
    </p>
  );
}

/**
 * A field with an error asks for focus. Of several, the browser focuses the first in the
 * page (only the first autofocus candidate is honoured), so after a refused form the
 * server's page opens on its first invalid field; with JavaScript, useValidatedForm
 * moves focus when the server's answer arrives.
 */
export function focusWhenInvalid(field: AnyField): { autoFocus: boolean } {
  return { autoFocus: Boolean(field.errors?.length) };
}

/** Ids of the hint and, when shown, the error: what a control's `aria-describedby` lists. */
export function describedBy(field: AnyField, ...extra: string[]): string {
  return [...extra, field.errors?.length ? field.errorId : undefined].filter(Boolean).join(" ");
}

/**
 * What every control of a field carries: id, name, form, and when the field has an
 * error `aria-invalid` and the error's id first in `aria-describedby` (then `hintId`).
 */
export function controlProps(field: AnyField, hintId?: string) {
  const invalid = Boolean(field.errors?.length);
  return {
    id: field.id,
    name: field.name,
    form: field.formId,
    "aria-invalid": invalid || undefined,
    "aria-describedby": [invalid ? field.errorId : undefined, hintId].filter(Boolean).join(" ") || undefined,
  };
}

/** The text a text box, select or textarea opens with (a list's first value). */
export function initialText(field: AnyField): string | undefined {
  return Array.isArray(field.initialValue) ? field.initialValue[0] : field.initialValue;
}

/** Whether a checkbox with this value opens checked: a list holds it, or the single value is it. */
export function initiallyChecked(field: AnyField, value = "on"): boolean {
  return Array.isArray(field.initialValue) ? field.initialValue.includes(value) : field.initialValue === value;
}
