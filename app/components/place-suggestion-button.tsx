import { suggestedPlace, suggestionValue, USE_SUGGESTION } from "~/domain/places/suggestion";

/**
 * "Use Alpine, TX" under a place box whose message is "Did you mean Alpine, TX?": a submit
 * button, so one click puts the place in the box and sends the form, with or without
 * JavaScript. It skips the browser's checks: the server answers for the whole form.
 */
export function PlaceSuggestionButton({
  fieldName,
  typed,
  message,
}: {
  fieldName: string;
  typed: string | undefined;
  message: string | undefined;
}) {
  const place = suggestedPlace(message);
  if (place === undefined || typed === undefined) return null;
  return (
    <button type="submit" name={USE_SUGGESTION} value={suggestionValue({ fieldName, typed, place })} formNoValidate className="btn-outline">
      Use {place}
    </button>
  );
}
