import { SPECIALTIES } from "~/domain/enums";
import { controlProps, FieldError, initiallyChecked, type AnyField } from "./field-parts";

/** The 13 specialties as checkboxes named `specialties`, one value per checked box. */
export function SpecialtyCheckboxes({ field, legend = "Specialties" }: { field: AnyField; legend?: string }) {
  return (
    <fieldset className="space-y-3" aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend className="text-sm font-semibold text-slate-800">
        {legend} <span className="font-normal text-slate-500">(choose all that apply)</span>
      </legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {SPECIALTIES.map((specialty) => (
          <label
            key={specialty}
            htmlFor={`${field.id}-${specialty}`}
            className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2.5 text-sm text-slate-800 hover:border-brand-600 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          >
            <input
              type="checkbox"
              {...controlProps(field)}
              id={`${field.id}-${specialty}`}
              value={specialty}
              defaultChecked={initiallyChecked(field, specialty)}
              className="h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-700"
            />
            {specialty}
          </label>
        ))}
      </div>
      <FieldError field={field} />
    </fieldset>
  );
}
