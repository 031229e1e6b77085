import { useState } from "react";
import { SelectField, type FormResult } from "~/components/form";
import { controlProps, FieldError, FieldHint, focusWhenInvalid, type AnyField } from "~/components/field-parts";
import { PlaceSuggestionButton } from "~/components/place-suggestion-button";
import { usePlaceSuggestions } from "~/components/place-suggestions";
import { useHydrated } from "~/components/use-hydrated";
import { SERVICE_RADII } from "~/domain/places/service-radius";
import { MAX_PLACES_SERVED } from "~/domain/profile-limits";

/** Empty boxes the form opens with beyond the places already listed (at least three boxes in all). */
const FEWEST_BOXES = 3;

const radiusOptions = SERVICE_RADII.map((miles) => ({ value: String(miles), label: `${miles} miles` }));

function listOf(value: AnyField["initialValue"]): string[] {
  if (Array.isArray(value)) return value;
  return value ? [value] : [];
}

/** One box of the list: its own id, and the message the server gave that box (`placesServed[2]`). */
function boxField(field: AnyField, errors: FormResult["error"], index: number, value: string | undefined): AnyField {
  const id = `${field.id}-${index}`;
  const messages = errors?.[`${field.name}[${index}]`];
  return {
    ...field,
    id,
    errorId: `${id}-error`,
    errors: messages?.length ? messages : undefined,
    initialValue: value,
  };
}

type PlacesServedFieldsProps = { places: AnyField; radius: AnyField; lastResult: FormResult | null | undefined };

/**
 * "Places you serve" (up to ten boxes, one place each, with suggestions when JavaScript
 * runs) and the radius around them. The server matches each box against the place list.
 */
export function PlacesServedFields({ places, radius, lastResult }: PlacesServedFieldsProps) {
  const listed = listOf(places.initialValue);
  const [boxCount, setBoxCount] = useState(Math.min(MAX_PLACES_SERVED, Math.max(FEWEST_BOXES, listed.length + 1)));
  const hydrated = useHydrated();
  const listId = `${places.id}-suggestions`;
  const { suggest, datalist } = usePlaceSuggestions(listId);
  const nothingListed = listed.every((place) => place.trim() === "");

  return (
    <div className="space-y-5">
      <fieldset className="space-y-2" aria-describedby={places.descriptionId}>
        <legend className="text-sm font-semibold text-slate-800">
          Places you serve <span className="ml-1 font-normal text-slate-500">(up to {MAX_PLACES_SERVED})</span>
        </legend>
        <FieldHint id={places.descriptionId}>
          {nothingListed
            ? "You list no places yet: requests are matched to agents by the places they serve, so add the cities and towns you work in."
            : "Texas and Oklahoma cities and towns, such as Tyler, TX. Leave a box empty to remove a place."}
        </FieldHint>
        <FieldError field={places} />
        <ol className="grid gap-3 sm:grid-cols-2">
          {Array.from({ length: boxCount }, (_, index) => {
            const box = boxField(places, lastResult?.error, index, listed[index]);
            return (
              <li key={box.id} className="space-y-1">
                <label htmlFor={box.id} className="sr-only">
                  Place {index + 1}
                </label>
                <input
                  // A new text from the server (a suggestion taken) replaces what the box shows.
                  key={listed[index] ?? ""}
                  type="text"
                  {...controlProps(box)}
                  {...focusWhenInvalid(box)}
                  list={listId}
                  defaultValue={listed[index]}
                  placeholder={index === 0 ? "Tyler, TX" : undefined}
                  autoComplete="off"
                  onInput={(event) => suggest(event.currentTarget.value)}
                  className="input"
                />
                <FieldError field={box} />
                <PlaceSuggestionButton fieldName={`${places.name}[${index}]`} typed={listed[index]} message={box.errors?.[0]} />
              </li>
            );
          })}
        </ol>
        {datalist}
        {hydrated && boxCount < MAX_PLACES_SERVED ? (
          <button type="button" className="btn-outline" onClick={() => setBoxCount((count) => count + 1)}>
            Add another place
          </button>
        ) : null}
      </fieldset>
      <SelectField
        field={radius}
        label="Radius"
        placeholder="Choose a distance"
        options={radiusOptions}
        hint="How far around your places you take clients."
      />
    </div>
  );
}
