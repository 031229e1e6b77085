import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AddToCalendar } from "~/components/add-to-calendar";
import { controlProps, FieldError, focusWhenInvalid, initiallyChecked } from "~/components/field-parts";
import { SubmitButton, TextareaField, TextField, useValidatedForm, ValidatedForm, type FormResult } from "~/components/form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ChevronDownIcon } from "~/components/icons";
import { CdaSection } from "~/components/referral-cda";
import { ReferralProposalFields } from "~/components/referral-proposal-fields";
import { BrokerChoiceField, BrokerStates } from "~/components/referral-brokers";
import { Acceptances, ReferralFacts, Timeline } from "~/components/referral-record";
import { referralItems } from "~/domain/calendar";
import { PRODUCT_NAME } from "~/domain/product";
import {
  brokerSignoffSchema,
  changeTermsSchema,
  declineSchema,
  proposalValues,
  signSchema,
  stepSchemas,
  withdrawSchema,
} from "~/domain/referrals/agreement";
import { REFERRAL_STATUS_LABELS, type PipelineStep } from "~/domain/referrals/status";
import { isReviewable } from "~/domain/reviews";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { publicUrl } from "~/server/accounts/urls.server";
import { clientIp } from "~/server/auth/client-ip.server";
import { referralPath } from "~/server/push/notices.server";
import { requireMember } from "~/server/auth/session.server";
import { FORM_MESSAGES, parseSubmission, readForm, rejectSubmission } from "~/server/forms.server";
import { cdaFormView } from "~/server/referrals/cda.server";
import { referralPageView, requireReferral } from "~/server/referrals/referral-view.server";
import type { ReferralResult } from "~/server/referrals/referrals.server";
import { inviteReviewers } from "~/server/reviews/invitations.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";
import { applyIntent, isIntent, REFERRAL_FORMS, type Intent } from "./intents.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Referral${data ? ` for ${data.referral.clientName}` : ""} | ${PRODUCT_NAME}` },
];

export const headers = passRetryAfter;

const SAVE_FAILED = "The change could not be saved. Please try again.";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { referral } = requireReferral(context.services, member, params.id ?? "");
  // Seen: a mail held back after a push about this referral need not go.
  context.services.notifier.visited(member, referralPath(referral.id));
  return {
    referral: referralPageView(context.services, referral, member),
    terms: proposalValues(referral, member.email),
    reviewable: isReviewable(referral),
    cda: cdaFormView(referral, member),
    calendarDates: referralItems(referral, "").map((item) => item.label),
  };
}

/**
 * Every form of the page posts here with its `intent` (the forms and what each does are in
 * intents.server.ts beside this file). A refusal (wrong party, out of order, a changed text)
 * answers with its status and message beside the form, and nothing is written.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { services } = context;
  const { referral } = requireReferral(services, member, params.id ?? "");
  const { formData, refusal } = await readForm(request);
  const intent = formData.get("intent");
  // A post without one of the page's intents was not sent by the page: refused as unreadable.
  if (!isIntent(intent))
    return rejectSubmission(parseSubmission(formData, signSchema, refusal ?? { status: 400, message: FORM_MESSAGES.unreadable }));
  const submission = parseSubmission(formData, REFERRAL_FORMS[intent], refusal);
  if (submission.status !== "success") return rejectSubmission(submission);
  const allowed = limitMemberWrite(context, "referral", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.referral, allowed.retryAfterSeconds);
  const value = submission.value;
  const change = {
    referralId: referral.id,
    member,
    now: new Date(),
    link: publicUrl(services.config, `/referrals/${referral.id}`, request),
  };
  let result: ReferralResult;
  try {
    result = await applyIntent(services, value, change, { ip: clientIp(context), userAgent: request.headers.get("User-Agent") ?? "" });
  } catch (error) {
    console.error(`Referral ${referral.id} not changed:`, error);
    return rejectSubmission(submission, { status: 503, formErrors: [SAVE_FAILED] });
  }
  if (!result.ok) return rejectSubmission(submission, { status: result.status, formErrors: [result.message] });
  if (isReviewable(result.referral)) inviteReviewers(services, result.referral, change.now, request);
  return redirect(`/referrals/${referral.id}`);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/** The server's last answer, for the form it answers only. */
function resultFor(lastResult: FormResult | undefined, intent: Intent) {
  return lastResult?.initialValue?.intent === intent ? lastResult : undefined;
}

export default function ReferralPage() {
  const { referral, terms, reviewable, cda, calendarDates } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6 sm:py-12">
      <p className="text-sm">
        <Link to="/referrals" className="font-semibold text-brand-700 hover:underline">
          ← My referrals
        </Link>
      </p>
      <section className="card space-y-4" aria-labelledby="referral-title">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h1 id="referral-title" className="text-2xl font-extrabold tracking-tight wrap-anywhere text-slate-900">
            Referral for {referral.clientName}
          </h1>
          <span className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800" data-testid="referral-status">
            {referral.statusLabel}
          </span>
        </div>
        <p className="text-slate-700">
          You are the <strong>{referral.party}</strong> agent; the other party is{" "}
          <Link to={`/agent/${referral.otherAgentId}`} className="font-semibold text-brand-700 hover:underline">
            {referral.otherName}
          </Link>
          . {referral.sideLabel} side, fee {referral.feeLabel}.
        </p>
        <ReferralFacts facts={referral.facts} doubts={referral.doubts} />
        {calendarDates.length > 0 ? (
          <AddToCalendar href={`/referrals/${referral.id}/calendar.ics`} what={calendarDates.join(", ")} />
        ) : null}
        <NextAction referral={referral} />
        {reviewable ? (
          <Link to="review" relative="path" className="btn-outline w-full sm:w-auto">
            Review {referral.otherName}
          </Link>
        ) : null}
      </section>

      <section className="card space-y-4" aria-labelledby="agreement-title">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="agreement-title" className="text-lg font-bold text-slate-900">
            The agreement
          </h2>
          <p className="flex gap-4 text-sm">
            <Link to="agreement" relative="path" className="font-semibold text-brand-700 hover:underline">
              Printable page
            </Link>
            <a href={`/referrals/${referral.id}/agreement.pdf`} className="font-semibold text-brand-700 hover:underline">
              PDF
            </a>
          </p>
        </div>
        <pre className="overflow-x-auto rounded-lg bg-slate-50 p-4 font-sans text-sm leading-relaxed wrap-anywhere whitespace-pre-wrap text-slate-800">
          {referral.text}
        </pre>
        <p className="text-xs break-all text-slate-500">SHA-256 of this text: {referral.hash}</p>
        <Acceptances acceptances={referral.acceptances} />
        <BrokerStates brokers={referral.brokers} />
        {referral.brokerMissing ? (
          <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900" role="status">
            This agreement does not name your sponsoring broker. Add your broker in{" "}
            <Link to="/edit-profile" className="underline">
              Edit profile
            </Link>
            , then save the terms again: referral fees are paid broker to broker in Texas and Oklahoma.
          </p>
        ) : null}
        {referral.canSign ? <SignForm hash={referral.hash} lastResult={resultFor(lastResult, "sign")} /> : null}
        {referral.canAskBroker ? <AskBrokerForm lastResult={resultFor(lastResult, "broker")} /> : null}
        {referral.canDecline ? <EndForm intent="decline" label="Decline" lastResult={resultFor(lastResult, "decline")} /> : null}
        {referral.canWithdraw ? <EndForm intent="withdraw" label="Withdraw" lastResult={resultFor(lastResult, "withdraw")} /> : null}
      </section>

      {referral.steps.length > 0 ? (
        <section className="card space-y-6" aria-labelledby="steps-title">
          <h2 id="steps-title" className="text-lg font-bold text-slate-900">
            Update the referral
          </h2>
          {referral.steps.map((step) => (
            <StepForm key={step} step={step} lastResult={resultFor(lastResult, step)} />
          ))}
        </section>
      ) : null}

      <CdaSection referralId={referral.id} cda={cda} lastResult={resultFor(lastResult, "cda")} />

      {referral.canChangeTerms ? (
        <ChangeTerms otherName={referral.otherName} terms={terms} lastResult={resultFor(lastResult, "terms")} />
      ) : null}

      <Timeline events={referral.timeline} />
    </div>
  );
}

type View = ReturnType<typeof useLoaderData<typeof loader>>["referral"];

function NextAction({ referral }: { referral: View }) {
  const text = nextActionText(referral);
  return text ? (
    <p className="rounded-lg bg-slate-100 px-4 py-3 text-sm font-medium text-slate-800" data-testid="next-action">
      Next: {text}
    </p>
  ) : null;
}

function nextActionText(referral: View): string | null {
  if (referral.blocked && referral.status === "proposed")
    return `${referral.canWithdraw ? "withdraw" : "decline"} it if you wish: one of you has blocked the other, so it can no longer be changed or signed.`;
  if (referral.brokerMissing) return "add your broker in Edit profile and save the terms again, then sign the agreement.";
  if (referral.canSign) return "read the agreement and sign it, or change the terms.";
  if (referral.canAskBroker) return "attest for your broker or ask them again: their sign-off is still missing.";
  if (referral.waitingForBrokers) return "wait for the brokers' sign-off: the agreement is in force once both have signed off.";
  if (referral.status === "proposed") return `wait for ${referral.otherName} to sign.`;
  const [step] = referral.steps.filter((candidate) => candidate !== "lost");
  if (step) return `mark the referral "${REFERRAL_STATUS_LABELS[step]}" when it happens.`;
  if (!referral.isFinal) return `wait for ${referral.otherName}'s next update.`;
  return null;
}

function IntentInput({ intent }: { intent: Intent }) {
  return <input type="hidden" name="intent" value={intent} />;
}

function SignForm({ hash, lastResult }: { hash: string; lastResult: FormResult | undefined }) {
  const [form, fields] = useValidatedForm<typeof signSchema>(lastResult, { id: "sign" });
  return (
    <ValidatedForm form={form} className="space-y-4 border-t border-slate-100 pt-4">
      <h3 className="font-bold text-slate-900">Sign the agreement</h3>
      <IntentInput intent="sign" />
      <input type="hidden" name={fields.agreementHash.name} value={hash} />
      <TextField field={fields.fullName} label="Your full name" autoComplete="name" />
      <div className="space-y-1.5">
        <label className="flex items-start gap-3 text-sm text-slate-800">
          <input
            type="checkbox"
            {...controlProps(fields.consent)}
            value="on"
            defaultChecked={initiallyChecked(fields.consent)}
            {...focusWhenInvalid(fields.consent)}
            className="mt-0.5 h-5 w-5 shrink-0"
          />
          <span>I have read the agreement above and agree to sign it electronically; typing my name is my signature.</span>
        </label>
        <FieldError field={fields.consent} />
      </div>
      <BrokerChoiceField field={fields.brokerSignoff} />
      <SubmitButton busyLabel="Signing...">Sign agreement</SubmitButton>
    </ValidatedForm>
  );
}

/** After signing, while the broker has not signed off and no link to them works: attest, or ask (again). */
function AskBrokerForm({ lastResult }: { lastResult: FormResult | undefined }) {
  const [form, fields] = useValidatedForm<typeof brokerSignoffSchema>(lastResult, { id: "broker" });
  return (
    <ValidatedForm form={form} className="space-y-4 border-t border-slate-100 pt-4">
      <h3 className="font-bold text-slate-900">Your broker&apos;s sign-off</h3>
      <IntentInput intent="broker" />
      <BrokerChoiceField field={fields.brokerSignoff} />
      <SubmitButton busyLabel="Saving...">Save</SubmitButton>
    </ValidatedForm>
  );
}

function EndForm({ intent, label, lastResult }: { intent: "decline" | "withdraw"; label: string; lastResult: FormResult | undefined }) {
  const [form, fields] = useValidatedForm<typeof declineSchema | typeof withdrawSchema>(lastResult, { id: intent });
  return (
    <ValidatedForm form={form} className="space-y-3 border-t border-slate-100 pt-4">
      <IntentInput intent={intent} />
      <TextareaField
        field={fields.note}
        label={`${label}: a note for ${intent === "decline" ? "the proposer" : "the other agent"}`}
        optional
        rows={2}
      />
      <SubmitButton busyLabel="Saving..." className="btn-outline w-full text-red-700 sm:w-auto">
        {label} the agreement
      </SubmitButton>
    </ValidatedForm>
  );
}

const STEP_BUTTONS: Record<PipelineStep, string> = {
  introduced: "Mark client introduced",
  under_contract: "Mark under contract",
  closed: "Mark closed",
  fee_paid: "Mark fee paid",
  fee_received: "Confirm fee received",
  lost: "Mark lost",
};

function StepForm({ step, lastResult }: { step: PipelineStep; lastResult: FormResult | undefined }) {
  const [form, fields] = useValidatedForm<(typeof stepSchemas)[PipelineStep]>(lastResult, { id: `step-${step}` });
  const all = fields as unknown as Record<string, Parameters<typeof TextField>[0]["field"]>;
  let extra: ReactNode = null;
  if (step === "under_contract") extra = <TextField field={all.expectedCloseDate!} label="Expected close date" type="date" />;
  if (step === "closed")
    extra = (
      <>
        <TextField field={all.closeDate!} label="Close date" type="date" />
        <TextField field={all.salePrice!} label="Price in dollars" inputMode="decimal" />
        <TextField
          field={all.grossCommission!}
          label="Receiving side's gross commission in dollars"
          hint="The referral fee is computed from it."
          inputMode="decimal"
        />
      </>
    );
  if (step === "lost") extra = <TextField field={all.reason!} label="Why was it lost?" />;
  return (
    <ValidatedForm form={form} className="space-y-3 rounded-lg border border-slate-200 p-4">
      <h3 className="font-semibold text-slate-900">{REFERRAL_STATUS_LABELS[step]}</h3>
      <IntentInput intent={step} />
      {extra}
      <TextareaField field={all.note!} label="Note for the other agent" optional rows={2} />
      <SubmitButton busyLabel="Saving..." className={step === "lost" ? "btn-outline w-full text-red-700 sm:w-auto" : undefined}>
        {STEP_BUTTONS[step]}
      </SubmitButton>
    </ValidatedForm>
  );
}

function ChangeTerms({
  otherName,
  terms,
  lastResult,
}: {
  otherName: string;
  terms: ReturnType<typeof useLoaderData<typeof loader>>["terms"];
  lastResult: FormResult | undefined;
}) {
  const [form, fields] = useValidatedForm<typeof changeTermsSchema>(lastResult, {
    id: "terms",
    defaultValue: { ...terms, intent: "terms" },
  });
  return (
    <details className="card group" open={lastResult !== undefined}>
      {/* Closed, the card is its summary: a title, what opening it does, and a chevron, so it reads as something to open. */}
      <summary className="flex cursor-pointer items-center justify-between gap-4">
        <span>
          <span className="block text-lg font-bold text-slate-900">Change the terms</span>
          <span className="block text-sm text-slate-600 group-open:hidden">Open the form to propose new terms</span>
        </span>
        <ChevronDownIcon className="h-6 w-6 shrink-0 text-brand-700 transition-transform group-open:rotate-180" />
      </summary>
      <p className="mt-2 text-sm text-slate-600">
        Changing any term clears both signatures and both brokers&apos; sign-offs: both agents sign the new text.
      </p>
      <ValidatedForm form={form} className="mt-4 space-y-5">
        <IntentInput intent="terms" />
        <ReferralProposalFields fields={fields} otherName={otherName} />
        <SubmitButton busyLabel="Saving...">Save new terms</SubmitButton>
      </ValidatedForm>
    </details>
  );
}
