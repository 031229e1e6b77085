import { Form, useLocation, useNavigation } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";

export type FilterOption = { readonly value: string; readonly label: string };

/**
 * Filters as a GET form: without JavaScript it submits like any form, so results,
 * paging and filters are plain URLs (shareable, bookmarkable, back button). The form is
 * keyed by the address, so a link that changes the filters (Clear All, a chip) also resets
 * what the controls show. The directories' forms update as the user chooses and types:
 * `LiveFilterForm` (live-filter-form.tsx), kept apart so the pages without it load less.
 */
/** What both filter forms take: the search landmark's name, the list's address, and the fields. */
export type FilterFormProps = { label: string; action: string; className: string; children: ReactNode };

export function FilterForm({ label, action, className, children }: FilterFormProps) {
  const { search } = useLocation();
  return (
    <Form key={search} method="get" action={action} preventScrollReset role="search" aria-label={label} className={className}>
      {children}
    </Form>
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
  suggestion,
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
  /** Under the message: the one-click fix it offers (`PlaceSuggestionButton`), from the page that offers one. */
  suggestion?: ReactNode;
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
      {suggestion}
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
