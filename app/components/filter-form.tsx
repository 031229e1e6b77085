import { Form, Link, useLocation, useNavigation, useNavigationType, useSubmit } from "@remix-run/react";
import { useEffect, useRef, type ComponentProps, type FormEvent, type ReactNode } from "react";
import { PlaceSuggestionButton } from "./place-suggestion-button";

/** How long typing must pause before the list updates. */
const FILTER_DEBOUNCE_MS = 300;

export type FilterOption = { readonly value: string; readonly label: string };

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
 * Filters as a GET form: without JavaScript it submits like any form, so results,
 * paging and filters are plain URLs (shareable, bookmarkable, back button).
 *
 * With `live` (the directories), choosing an option updates the list at once and typing
 * updates it after a short pause; one typing session adds one history entry, not one per
 * letter, and the fields follow the URL on back and forward. Without it (the request
 * lists, whose filters are applied with a button) the form is keyed by the address, so a
 * link that changes the filters (Clear All, a chip) also resets what the controls show.
 */
export function FilterForm({
  label,
  action,
  live = false,
  className,
  children,
}: {
  label: string;
  action: string;
  live?: boolean;
  className: string;
  children: ReactNode;
}) {
  const { search } = useLocation();
  const liveHandlers = useLiveFilters(action, live);
  return (
    <Form
      key={live ? undefined : search}
      method="get"
      action={action}
      preventScrollReset
      role="search"
      aria-label={label}
      className={className}
      {...liveHandlers}
    >
      {children}
    </Form>
  );
}

/** The live form's handlers, or none (and no effects) when the form is not live. */
function useLiveFilters(action: string, live: boolean) {
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
    if (live && form && changedSinceRendered(form)) send(form, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the scripts start: later changes go through onChange.
  }, []);

  // Back, forward and links change the URL without touching the fields: show what the URL says.
  // A text field being typed in keeps its text, unless the user went back or forward ("POP"):
  // the answer to an earlier keystroke must not overwrite later ones.
  // Not on the first render: the server drew the fields from this URL, and a choice made while
  // the scripts loaded is still to be sent (the change that wakes the page is handled after this).
  useEffect(() => {
    const form = formRef.current;
    if (!live || !form || key === renderedEntry.current) return;
    renderedEntry.current = key;
    if (navigationType === "POP") clearTimeout(timer.current);
    const params = new URLSearchParams(search);
    for (const element of Array.from(form.elements)) {
      if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement) || !element.name) continue;
      if (navigationType !== "POP" && element === document.activeElement && isTextInput(element)) continue;
      element.value = params.get(element.name) ?? "";
    }
  }, [key, search, navigationType, live]);

  function send(form: HTMLFormElement, replace: boolean, submitter?: HTMLElement | null) {
    clearTimeout(timer.current);
    const fields = filledFields(form);
    // A button with a value of its own ("Use Alpine, TX") sends it, as the form does without scripts.
    if (submitter instanceof HTMLButtonElement && submitter.name) fields.append(submitter.name, submitter.value);
    submit(fields, { method: "get", action, replace, preventScrollReset: true });
  }

  if (!live) return {};
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

/** The filter fields' look: the site's input, one row high. */
const controlClass = "input h-11 py-0";

function FilterLabel({ name, label }: { name: string; label: string }) {
  return (
    <label htmlFor={`filter-${name}`} className="block text-sm font-semibold text-slate-800">
      {label}
    </label>
  );
}

export function FilterTextInput({
  name,
  label,
  defaultValue,
  placeholder,
  type = "text",
  maxLength = 100,
  className = "space-y-1.5",
  list,
  onInput,
  message,
}: {
  name: string;
  label: string;
  defaultValue: string | undefined;
  placeholder?: string;
  type?: "text" | "search";
  maxLength?: number;
  className?: string;
  /** The id of a `<datalist>` of suggestions. */
  list?: string;
  onInput?: ComponentProps<"input">["onInput"];
  /** What the server could not use in this field ("Did you mean Tyler, TX?"), shown under it. */
  message?: string;
}) {
  const messageId = `filter-${name}-message`;
  return (
    <div className={className}>
      <FilterLabel name={name} label={label} />
      <input
        id={`filter-${name}`}
        name={name}
        type={type}
        defaultValue={defaultValue ?? ""}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="off"
        list={list}
        onInput={onInput}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? messageId : undefined}
        className={controlClass}
      />
      {message ? (
        <p id={messageId} className="text-sm font-medium text-red-700">
          {message}
        </p>
      ) : null}
      <PlaceSuggestionButton fieldName={name} typed={defaultValue} message={message} />
    </div>
  );
}

/** A select of a filter form; with `allLabel`, its first option ("any") sends an empty value. */
export function FilterSelect({
  name,
  label,
  defaultValue,
  allLabel,
  options,
}: {
  name: string;
  label: string;
  defaultValue: string | undefined;
  allLabel?: string;
  options: readonly FilterOption[];
}) {
  return (
    <div className="min-w-0 space-y-1.5">
      <FilterLabel name={name} label={label} />
      <select id={`filter-${name}`} name={name} defaultValue={defaultValue ?? ""} className={controlClass}>
        {allLabel !== undefined ? <option value="">{allLabel}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The results' count line, announced to screen readers when it changes, with a spinner while new results load. */
export function ResultsStatus({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const loading = navigation.state === "loading" && navigation.location.pathname === pathname;
  return (
    <div className="flex min-h-6 items-center gap-3">
      <p role="status" aria-live="polite" className="text-sm font-medium text-slate-700">
        {children}
      </p>
      {loading ? (
        <span className="inline-flex items-center gap-2 text-sm text-slate-500">
          <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-700" />
          Loading...
        </span>
      ) : null}
    </div>
  );
}
