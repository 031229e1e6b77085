// Kept apart from the filter kit: the workbook's request types bring zod, which the directory page does not load.
import { MARKET_STATE_NAMES, MARKET_STATES, PRICE_RANGES, REQUEST_TYPE_VALUES, SPECIALTIES } from "~/domain/enums";
import { CLIENT_TYPES, REQUEST_TYPE_LABELS } from "~/domain/referral-requests/labels";
import { FilterSelect, type FilterOption } from "./filter-form";

const asOptions = (values: readonly string[]): FilterOption[] => values.map((value) => ({ value, label: value }));

/** The request lists' filters: each one's label, its "any" choice and its choices. */
const REQUEST_FILTERS = {
  type: {
    label: "Type",
    allLabel: "All Types",
    options: REQUEST_TYPE_VALUES.map((value) => ({ value, label: REQUEST_TYPE_LABELS[value] })),
  },
  state: {
    label: "State",
    allLabel: "All States",
    options: MARKET_STATES.map((code) => ({ value: code, label: MARKET_STATE_NAMES[code] })),
  },
  specialty: { label: "Specialty", allLabel: "All Specialties", options: asOptions(SPECIALTIES) },
  priceRange: { label: "Price Range", allLabel: "All Prices", options: asOptions(PRICE_RANGES) },
  clientType: { label: "Client Type", allLabel: "All Clients", options: CLIENT_TYPES },
} as const satisfies Record<string, { label: string; allLabel: string; options: readonly FilterOption[] }>;

/** One of the request lists' filter selects, the same on the dashboard and the requests page. */
export function RequestFilterSelect({ name, defaultValue }: { name: keyof typeof REQUEST_FILTERS; defaultValue: string | undefined }) {
  return <FilterSelect name={name} {...REQUEST_FILTERS[name]} defaultValue={defaultValue} />;
}
