import { FieldError, focusWhenInvalid, initialText, type AnyField } from "./field-parts";

const STARS = [1, 2, 3, 4, 5] as const;

/**
 * A 1-to-5 star rating as five radio buttons in a fieldset: the browser's own radio group
 * (arrow keys, one Tab stop, posted without scripts), each drawn as a star whose label
 * says how many stars it gives. The filling is CSS (`.star-rating` in tailwind.css).
 */
export function StarRatingField({ field, legend }: { field: AnyField; legend: string }) {
  const chosen = initialText(field);
  const invalid = Boolean(field.errors?.length);
  return (
    <fieldset className="space-y-1" aria-describedby={invalid ? field.errorId : undefined}>
      <legend className="text-sm font-semibold text-slate-800">{legend}</legend>
      <div className="star-rating flex gap-1">
        {STARS.map((stars) => {
          const id = `${field.id}-${stars}`;
          return [
            <input
              key={`input-${stars}`}
              type="radio"
              id={id}
              name={field.name}
              form={field.formId}
              value={String(stars)}
              defaultChecked={chosen === String(stars)}
              {...(stars === 1 ? focusWhenInvalid(field) : {})}
              className="sr-only"
            />,
            <label key={`label-${stars}`} htmlFor={id} className="cursor-pointer px-0.5 text-3xl leading-none">
              <span aria-hidden="true">★</span>
              <span className="sr-only">{stars === 1 ? "1 star" : `${stars} stars`}</span>
            </label>,
          ];
        })}
      </div>
      <FieldError field={field} />
    </fieldset>
  );
}
