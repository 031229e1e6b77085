import { useState } from "react";
import { BIO_MAX_LENGTH } from "~/domain/profile-limits";
import { controlProps, describedBy, FieldError, focusWhenInvalid, initialText, type AnyField } from "./field-parts";

/**
 * The bio, at most 600 characters, with a counter: rendered by the server with
 * the current length, updated as the user types when JavaScript runs.
 */
export function BioField({ field, label = "Professional Bio", placeholder }: { field: AnyField; label?: string; placeholder?: string }) {
  const initial = initialText(field) ?? "";
  const [length, setLength] = useState(initial.length);
  const counterId = `${field.id}-counter`;
  const over = length > BIO_MAX_LENGTH;
  return (
    <div className="space-y-1.5">
      <label htmlFor={field.id} className="block text-sm font-semibold text-slate-800">
        {label} <span className="font-normal text-slate-500">(optional)</span>
      </label>
      <textarea
        {...controlProps(field)}
        defaultValue={initial}
        aria-describedby={describedBy(field, counterId)}
        {...focusWhenInvalid(field)}
        maxLength={BIO_MAX_LENGTH}
        rows={5}
        placeholder={placeholder}
        onInput={(event) => setLength(event.currentTarget.value.length)}
        className="input"
      />
      <p
        id={counterId}
        className={`text-right text-xs ${over ? "font-semibold text-red-700" : "text-slate-500"}`}
        data-testid="bio-counter"
      >
        {length}/{BIO_MAX_LENGTH} characters
      </p>
      <FieldError field={field} />
    </div>
  );
}
