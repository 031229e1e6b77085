// Kept apart from the filter kit: the workbook's request types bring zod, which the directory page does not load.
import { MARKET_STATE_NAMES, MARKET_STATES, PRICE_RANGES, REQUEST_TYPE_VALUES, SPECIALTIES } from "~/domain/enums";
import { CLIENT_TYPES, REQUEST_TYPE_LABELS } from "~/domain/referral-requests/labels";
import type { FilterOption } from "./filter-form";

const asOptions = (values: readonly string[]): FilterOption[] => values.map((value) => ({ value, label: value }));

/** The request lists' filter choices. */
export const REQUEST_FILTER_OPTIONS = {
  type: REQUEST_TYPE_VALUES.map((value) => ({ value, label: REQUEST_TYPE_LABELS[value] })),
  state: MARKET_STATES.map((code) => ({ value: code, label: MARKET_STATE_NAMES[code] })),
  specialty: asOptions(SPECIALTIES),
  priceRange: asOptions(PRICE_RANGES),
  clientType: CLIENT_TYPES,
} as const;
