import type { ProposalInput } from "~/domain/referrals/agreement";
import { FEE_TYPE_OPTIONS, REFERRER_OPTIONS, SIDE_OPTIONS } from "~/domain/referrals/labels";
import type { AnyField } from "./field-parts";
import { SelectField, TextareaField, TextField } from "./form";

type ProposalFields = Record<Exclude<keyof ProposalInput, "idempotencyKey">, AnyField>;

/** The terms of a referral agreement: the proposal form's fields, also used to change the terms. */
export function ReferralProposalFields({ fields, otherName }: { fields: ProposalFields; otherName: string }) {
  return (
    <>
      <SelectField
        field={fields.referrer}
        label="Who refers the client"
        hint={`The agent who has the client refers them; the other agent (${otherName} or you) receives.`}
        options={REFERRER_OPTIONS}
        placeholder="Choose..."
      />
      <TextField
        field={fields.clientName}
        label="Client's first name or initials"
        hint="No more of the client's personal data than that."
        autoComplete="off"
      />
      <SelectField field={fields.side} label="Side" options={SIDE_OPTIONS} placeholder="Choose a side..." />
      <SelectField field={fields.feeType} label="Referral fee" options={FEE_TYPE_OPTIONS} placeholder="Choose..." />
      <TextField field={fields.feePercent} label="Fee percentage (1 to 50)" hint="Used when the fee is a percentage." inputMode="decimal" />
      <TextField
        field={fields.feeFlat}
        label="Flat fee in dollars"
        hint="Used when the fee is a flat amount, e.g. 2,500.00."
        inputMode="decimal"
      />
      <TextField
        field={fields.termMonths}
        label="Term in months"
        hint="Counted from the day the agreement is in force: both agents signed and both brokers signed off."
        inputMode="numeric"
      />
      <TextField field={fields.feeDue} label="The fee is due" />
      <TextareaField field={fields.terms} label="Further terms" optional rows={4} />
    </>
  );
}
