import { Form, Link, useLocation, useNavigationType, useSubmit } from "@remix-run/react";
import { useEffect, useRef, type FormEvent } from "react";
import type { FilterFormProps } from "./filter-form";

/** How long typing must pause before the list updates. */
const FILTER_DEBOUNCE_MS = 300;

function isTextInput(element: EventTarget | null): element is HTMLInputElement {
  return element instanceof HTMLInputElement && (element.type === "search" || element.type === "text");
}

/** The form's filled fields only, so shared URLs read `?state=TX`, not `?q=&state=TX&specialty=`. */
function filledFields(form: HTMLFormElement): FormData {
  const data = new FormData();
  for (const [name, value] of new FormData(form)) {
    if (typeof value === "string" && value.trim() !== "") data.append(name, value);
  }
  return data;
}

/** True when a field no longer shows what the server rendered: the user changed it before the scripts ran. */
function changedSinceRendered(form: HTMLFormElement): boolean {
  return Array.from(form.elements).some((element) => {
    if (element instanceof HTMLInputElement) return element.name !== "" && element.value !== element.defaultValue;
    if (element instanceof HTMLSelectElement)
      return Array.from(element.options).some((option) => option.selected !== option.defaultSelected);
    return false;
  });
}

/**
 * The directories' filters: a GET form as `FilterForm` is (it works the same without
 * JavaScript), whose list updates at once when an option is chosen and after a short pause
 * in typing; one typing session adds one history entry, not one per letter, and the fields
 * follow the URL on back and forward.
 */
export function LiveFilterForm({ label, action, className, children }: FilterFormProps) {
  const handlers = useLiveFilters(action);
  return (
    <Form method="get" action={action} preventScrollReset role="search" aria-label={label} className={className} {...handlers}>
      {children}
    </Form>
  );
}

/** The live form's ref and handlers. */
function useLiveFilters(action: string) {
  const submit = useSubmit();
  const { search, key } = useLocation();
  const navigationType = useNavigationType();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  /** The history entry shown now, and the one shown when the current typing session began. */
  const currentEntry = useRef(key);
  const typingSessionEntry = useRef(key);
  /** The history entry whose address the fields show. */
  const renderedEntry = useRef(key);

  useEffect(() => {
    currentEntry.current = key;
  }, [key]);

  useEffect(() => () => clearTimeout(timer.current), []);

  // A choice made while the page was still loading its scripts had no handler to send it.
  useEffect(() => {
    const form = formRef.current;
    if (form && changedSinceRendered(form)) send(form, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the scripts start: later changes go through onChange.
  }, []);

  // Back, forward and links change the URL without touching the fields: show what the URL says.
  // A text field being typed in keeps its text, unless the user went back or forward ("POP"):
  // the answer to an earlier keystroke must not overwrite later ones.
  // Not on the first render: the server drew the fields from this URL, and a choice made while
  // the scripts loaded is still to be sent (the change that wakes the page is handled after this).
  useEffect(() => {
    const form = formRef.current;
    if (!form || key === renderedEntry.current) return;
    renderedEntry.current = key;
    if (navigationType === "POP") clearTimeout(timer.current);
    const params = new URLSearchParams(search);
    for (const element of Array.from(form.elements)) {
      if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement) || !element.name) continue;
      if (navigationType !== "POP" && element === document.activeElement && isTextInput(element)) continue;
      element.value = params.get(element.name) ?? "";
    }
  }, [key, search, navigationType]);

  function send(form: HTMLFormElement, replace: boolean, submitter?: HTMLElement | null) {
    clearTimeout(timer.current);
    const fields = filledFields(form);
    // A button with a value of its own ("Use Alpine, TX") sends it, as the form does without scripts.
    if (submitter instanceof HTMLButtonElement && submitter.name) fields.append(submitter.name, submitter.value);
    submit(fields, { method: "get", action, replace, preventScrollReset: true });
  }

  return {
    ref: formRef,
    onChange(event: FormEvent<HTMLFormElement>) {
      const form = event.currentTarget;
      if (!isTextInput(event.target)) {
        send(form, false);
        return;
      }
      clearTimeout(timer.current);
      // The session's first results get a history entry of their own; later ones replace it. A first
      // navigation still loading when the next one starts never became an entry, so that one pushes too.
      timer.current = setTimeout(() => send(form, currentEntry.current !== typingSessionEntry.current), FILTER_DEBOUNCE_MS);
    },
    onSubmit(event: FormEvent<HTMLFormElement>) {
      event.preventDefault();
      send(event.currentTarget, false, (event.nativeEvent as SubmitEvent).submitter);
    },
    onFocus(event: FormEvent<HTMLFormElement>) {
      if (isTextInput(event.target)) typingSessionEntry.current = currentEntry.current;
    },
  };
}

/** The directories' Search button and Clear link. */
export function SearchAndClear({ clearHref }: { clearHref: string }) {
  return (
    <div className="flex items-center gap-3 md:justify-end">
      <button type="submit" className="btn-primary flex-1 md:flex-none">
        Search
      </button>
      <Link
        to={clearHref}
        className="text-sm font-semibold whitespace-nowrap text-brand-700 underline underline-offset-2 hover:text-brand-800"
      >
        Clear all filters
      </Link>
    </div>
  );
}
