import { MARKET_STATE_NAMES, MARKET_STATES, PRICE_RANGES, SPECIALTIES, TIMELINES } from "~/domain/enums";
import { RESPOND_BY_MAX_HOURS, RESPOND_BY_MIN_HOURS } from "~/domain/invitations";
import { CLIENT_TYPES, CONTACT_PREFERENCE_OPTIONS } from "~/domain/referral-requests/labels";
import type { RequestType } from "~/domain/enums";
import { controlProps, FieldError, initiallyChecked, type AnyField } from "./field-parts";
import { SelectField, TextareaField, TextField } from "./form";
import { usePlaceSuggestions } from "./place-suggestions";

type RequestFieldName =
  | "title"
  | "location"
  | "state"
  | "specialty"
  | "priceRange"
  | "clientType"
  | "timeline"
  | "contactPreference"
  | "listingAddress"
  | "listingMLS"
  | "description"
  | "urgent"
  | "respondByHours";

const stateOptions = MARKET_STATES.map((code) => ({ value: code, label: `${MARKET_STATE_NAMES[code]} (${code})` }));
const specialtyOptions = SPECIALTIES.map((specialty) => ({ value: specialty, label: specialty }));
const priceOptions = PRICE_RANGES.map((range) => ({ value: range, label: range }));

const TITLE_EXAMPLES: Record<RequestType, string> = {
  referral: "e.g. Relocating family needs a buyer's agent in Oklahoma City",
  listing: "e.g. Updated 4-bed with pool in Lake Highlands",
  buyer: "e.g. Pre-approved buyer looking for acreage near Tulsa",
};

/**
 * The request form's fields, named as the Requests tab's columns, for posting and
 * editing. Listing address and MLS number show for listings, client type for referrals.
 */
export function RequestFormFields({ fields, type }: { fields: Record<RequestFieldName, AnyField>; type: RequestType }) {
  return (
    <>
      <TextField field={fields.title} label="Request Title" placeholder={TITLE_EXAMPLES[type]} />
      <div className="grid gap-5 sm:grid-cols-2">
        <LocationField field={fields.location} />
        <SelectField field={fields.state} label="State" placeholder="Select a state" options={stateOptions} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField field={fields.specialty} label="Specialty" placeholder="Select a specialty" options={specialtyOptions} />
        <SelectField field={fields.priceRange} label="Price Range" placeholder="Select a price range" options={priceOptions} />
      </div>
      {type === "listing" ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField field={fields.listingAddress} label="Listing Address" optional autoComplete="street-address" />
          <TextField field={fields.listingMLS} label="MLS Number" optional />
        </div>
      ) : null}
      {type === "referral" ? (
        <SelectField
          field={fields.clientType}
          label="Client Type"
          hint="Buyer unless you choose Seller."
          placeholder="Select buyer or seller"
          options={CLIENT_TYPES}
        />
      ) : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField field={fields.timeline} label="Timeline" optional placeholder="Select a timeline" options={TIMELINES} />
        <SelectField
          field={fields.contactPreference}
          label="Preferred Contact Method"
          optional
          placeholder="Select a contact method"
          options={CONTACT_PREFERENCE_OPTIONS}
        />
      </div>
      <TextareaField
        field={fields.description}
        label="Description"
        rows={6}
        placeholder="Describe the client, the property or what you need from the other agent."
      />
      <UrgentCheckbox field={fields.urgent} />
      <TextField
        field={fields.respondByHours}
        label="Respond by"
        inputMode="numeric"
        optional
        hint={`Hours from now (${RESPOND_BY_MIN_HOURS} to ${RESPOND_BY_MAX_HOURS}) the agents you invite have to answer; they are reminded once before it. Leave blank for no deadline.`}
      />
    </>
  );
}

/** Free text ("Tyler area" is fine), with the place list's towns suggested in the chosen state. */
function LocationField({ field }: { field: AnyField }) {
  const listId = `${field.id}-suggestions`;
  const { suggest, datalist } = usePlaceSuggestions(listId, (place) => place.name);
  return (
    <div>
      <TextField
        field={field}
        label="City/Area"
        placeholder="e.g. Dallas"
        autoComplete="off"
        list={listId}
        onInput={(event) => {
          const state = event.currentTarget.form?.elements.namedItem("state");
          suggest(event.currentTarget.value, state instanceof HTMLSelectElement ? state.value : undefined);
        }}
      />
      {datalist}
    </div>
  );
}

function UrgentCheckbox({ field }: { field: AnyField }) {
  return (
    <div>
      <label htmlFor={field.id} className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4">
        <input
          type="checkbox"
          {...controlProps(field)}
          value="on"
          defaultChecked={initiallyChecked(field)}
          className="mt-0.5 h-5 w-5 shrink-0 accent-red-600"
        />
        <span>
          <span className="block font-semibold text-slate-800">This request is urgent</span>
          <span className="block text-sm text-slate-600">Urgent requests carry an URGENT badge and appear under the Urgent filter.</span>
        </span>
      </label>
      <FieldError field={field} />
    </div>
  );
}
