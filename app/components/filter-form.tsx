import { Form, Link, useLocation, useNavigation, useNavigationType, useSubmit } from "@remix-run/react";
import { useEffect, useRef, type FormEvent, type ReactNode } from "react";

/** How long typing must pause before the list updates. */
const FILTER_DEBOUNCE_MS = 300;

const controlClass =
  "block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30";

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
    if (element instanceof HTMLSelectElement) return Array.from(element.options).some((option) => option.selected !== option.defaultSelected);
    return false;
  });
}

/**
 * Filters as a GET form: without JavaScript it submits like any form, so results,
 * paging and filters are plain URLs (shareable, bookmarkable, back button). With
 * JavaScript, choosing an option updates the list at once and typing updates it after
 * a short pause; one typing session adds one history entry, not one per letter.
 */
export function FilterForm({ label, clearHref, children }: { label: string; clearHref: string; children: ReactNode }) {
  const submit = useSubmit();
  const { pathname, search, key } = useLocation();
  const navigationType = useNavigationType();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  /** The history entry shown now, and the one shown when the current typing session began. */
  const currentEntry = useRef(key);
  const typingSessionEntry = useRef(key);

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
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    if (navigationType === "POP") clearTimeout(timer.current);
    const params = new URLSearchParams(search);
    for (const element of Array.from(form.elements)) {
      if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement) || !element.name) continue;
      if (navigationType !== "POP" && element === document.activeElement && isTextInput(element)) continue;
      element.value = params.get(element.name) ?? "";
    }
  }, [search, navigationType]);

  function send(form: HTMLFormElement, replace: boolean) {
    clearTimeout(timer.current);
    submit(filledFields(form), { method: "get", action: pathname, replace, preventScrollReset: true });
  }

  function onChange(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    if (!isTextInput(event.target)) {
      send(form, false);
      return;
    }
    clearTimeout(timer.current);
    // The session's first results get a history entry of their own; later ones replace it. A first
    // navigation still loading when the next one starts never became an entry, so that one pushes too.
    timer.current = setTimeout(() => send(form, currentEntry.current !== typingSessionEntry.current), FILTER_DEBOUNCE_MS);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send(event.currentTarget, false);
  }

  return (
    <Form
      ref={formRef}
      method="get"
      action={pathname}
      role="search"
      aria-label={label}
      onChange={onChange}
      onSubmit={onSubmit}
      onFocus={(event) => {
        if (isTextInput(event.target)) typingSessionEntry.current = currentEntry.current;
      }}
      className="card grid gap-4 p-4 sm:p-5 md:grid-cols-[repeat(auto-fit,minmax(12rem,1fr))] md:items-end"
    >
      {children}
      <div className="flex items-center gap-3 md:justify-end">
        <button type="submit" className="btn-primary flex-1 md:flex-none">
          Search
        </button>
        <Link to={clearHref} className="text-sm font-semibold whitespace-nowrap text-brand-700 underline underline-offset-2 hover:text-brand-800">
          Clear all filters
        </Link>
      </div>
    </Form>
  );
}

export function FilterTextInput({
  name,
  label,
  defaultValue,
  placeholder,
  type = "text",
  wide = false,
}: {
  name: string;
  label: string;
  defaultValue: string;
  placeholder?: string;
  type?: "text" | "search";
  /** Two columns on wide screens, so a long placeholder shows whole. */
  wide?: boolean;
}) {
  return (
    <div className={wide ? "space-y-1.5 md:col-span-2" : "space-y-1.5"}>
      <label htmlFor={`filter-${name}`} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <input
        id={`filter-${name}`}
        name={name}
        type={type}
        defaultValue={defaultValue}
        placeholder={placeholder}
        maxLength={100}
        autoComplete="off"
        className={controlClass}
      />
    </div>
  );
}

export function FilterSelect({
  name,
  label,
  defaultValue,
  allLabel,
  options,
}: {
  name: string;
  label: string;
  defaultValue: string;
  allLabel: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={`filter-${name}`} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <select id={`filter-${name}`} name={name} defaultValue={defaultValue} className={controlClass}>
        <option value="">{allLabel}</option>
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
