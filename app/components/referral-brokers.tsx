import { BROKER_CHOICE_OPTIONS } from "~/domain/referrals/labels";
import { FieldError, focusWhenInvalid, initialText, type AnyField } from "./field-parts";

type BrokerState = { role: string; name: string; license: string; state: string; signedOff: boolean };

/** Each side's sponsoring broker as the agreement names them, and where their sign-off stands. */
export function BrokerStates({ brokers }: { brokers: BrokerState[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2" aria-label="Broker sign-offs">
      {brokers.map((broker) => (
        <li key={broker.role} className="rounded-lg border border-slate-200 p-3 text-sm" data-testid="broker-state">
          <p className="font-semibold wrap-anywhere text-slate-900">
            {broker.role}: {broker.name || "not named"}
            {broker.license ? <span className="font-normal text-slate-600"> (license {broker.license})</span> : null}
          </p>
          <p className={broker.signedOff ? "text-emerald-800" : "text-slate-700"}>{broker.state}</p>
        </li>
      ))}
    </ul>
  );
}

/**
 * The required choice of how the signer's broker signs off, as a radio group (posted
 * without scripts): the agent attests their broker's authority, or asks the broker by mail.
 */
export function BrokerChoiceField({ field }: { field: AnyField }) {
  const chosen = initialText(field);
  const invalid = Boolean(field.errors?.length);
  return (
    <fieldset className="space-y-2" aria-describedby={invalid ? field.errorId : undefined}>
      <legend className="text-sm font-semibold text-slate-800">Your broker&apos;s sign-off</legend>
      {BROKER_CHOICE_OPTIONS.map((option, index) => (
        <label key={option.value} className="flex items-start gap-3 text-sm text-slate-800">
          <input
            type="radio"
            name={field.name}
            form={field.formId}
            value={option.value}
            defaultChecked={chosen === option.value}
            {...(index === 0 ? focusWhenInvalid(field) : {})}
            className="mt-0.5 h-5 w-5 shrink-0"
          />
          <span>{option.label}</span>
        </label>
      ))}
      <FieldError field={field} />
    </fieldset>
  );
}
