import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { MARKET_STATE_NAMES, MARKET_STATES, PRICE_RANGES, SPECIALTIES } from "~/domain/enums";
import { CLIENT_TYPES, REQUEST_TYPE_LABELS } from "~/domain/referral-requests/labels";
import { REQUEST_TYPE_VALUES } from "~/domain/workbook/tabs";

const controlClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30";

type Option = { readonly value: string; readonly label: string };

const asOptions = (values: readonly string[]): Option[] => values.map((value) => ({ value, label: value }));

export const FILTER_OPTIONS = {
  type: REQUEST_TYPE_VALUES.map((value) => ({ value, label: REQUEST_TYPE_LABELS[value] })),
  state: MARKET_STATES.map((code) => ({ value: code, label: MARKET_STATE_NAMES[code] })),
  specialty: asOptions(SPECIALTIES),
  priceRange: asOptions(PRICE_RANGES),
  clientType: CLIENT_TYPES,
} as const;

/** A select of a GET filter form: the first option, "any", sends an empty value. */
export function FilterSelect(props: { name: string; label: string; anyLabel: string; options: readonly Option[]; value: string | undefined }) {
  const id = `filter-${props.name}`;
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {props.label}
      </label>
      <select id={id} name={props.name} defaultValue={props.value ?? ""} className={controlClass}>
        <option value="">{props.anyLabel}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function SearchInput({ label, value, placeholder }: { label: string; value: string | undefined; placeholder: string }) {
  return (
    <div className="min-w-0">
      <label htmlFor="filter-q" className="mb-1 block text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {label}
      </label>
      <input id="filter-q" type="search" name="q" defaultValue={value ?? ""} placeholder={placeholder} maxLength={200} className={controlClass} />
    </div>
  );
}

/**
 * A GET form of filters: every choice is in the address, so a filtered list can be
 * bookmarked, shared and reloaded. Keyed by the address, so a link that changes the
 * filters (Clear All, a chip) also resets what the controls show.
 */
export function FilterForm({ action, children, className }: { action: string; children: ReactNode; className?: string }) {
  const { search } = useLocation();
  return (
    <Form key={search} method="get" action={action} preventScrollReset className={className} role="search">
      {children}
    </Form>
  );
}
