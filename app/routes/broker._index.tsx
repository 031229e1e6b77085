import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { AccountFrame, CheckYourEmail } from "~/components/account-frame";
import { SelectField, SubmitButton, TextField, useValidatedForm, ValidatedForm, type FormResult } from "~/components/form";
import { brokerLinkSchema } from "~/domain/broker-form";
import { BROKER_LINK_ANSWER, BROKER_STATES } from "~/domain/brokers";
import { PRODUCT_NAME } from "~/domain/product";
import { passRetryAfter, refuseTooMany, throttle } from "~/server/accounts/throttle.server";
import { requestBrokerLink } from "~/server/brokers/broker-link.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";

export const meta: MetaFunction = () => [
  { title: `Broker's View | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `Sponsoring brokers: see your agents' referrals in ${PRODUCT_NAME} and download the year's referral fees.`,
  },
];

export const headers = passRetryAfter;

/**
 * The answer is the same whatever was typed, so the form cannot tell whether a license or
 * an address is known; it counts against the limits of the other mailed-link form (the
 * password reset): per address and per e-mail.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await parseForm(request, brokerLinkSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const { limits } = context.services.auth;
  const allowed = throttle(context, limits.resetByIp, limits.resetByEmail, submission.value.email);
  if (!allowed.allowed) return refuseTooMany(submission, "link requests", allowed.retryAfterSeconds);
  try {
    await requestBrokerLink(context.services, submission.value, request);
  } catch (error) {
    console.error("A broker's link request was not recorded:", error);
    return rejectSubmission(submission, { status: 503, formErrors: ["Your request could not be saved. Please try again in a moment."] });
  }
  return { sent: submission.value.email };
}

export default function BrokerLinkPage() {
  const actionData = useActionData<typeof action>();
  return actionData && "sent" in actionData ? (
    <LinkRequested email={actionData.sent} />
  ) : (
    <RequestForm lastResult={actionData && !("sent" in actionData) ? actionData : null} />
  );
}

function RequestForm({ lastResult }: { lastResult: FormResult | null }) {
  const [form, fields] = useValidatedForm<typeof brokerLinkSchema>(lastResult, { defaultValue: { state: "TX" } });
  return (
    <AccountFrame
      title="Broker's View"
      intro="Sponsoring brokers: see the referrals of the agents you sponsor in this network, their agreements, and a yearly CSV of the referral fees for your 1099 paperwork. No account needed."
    >
      <section className="card mt-8" aria-label="Ask for a link">
        <ValidatedForm form={form} className="space-y-5">
          <SelectField field={fields.state} label="License issued by" options={BROKER_STATES} placeholder="Choose a state" />
          <TextField field={fields.licenseNumber} label="Broker license number" autoComplete="off" inputMode="numeric" />
          <TextField
            field={fields.email}
            label="Email Address"
            type="email"
            autoComplete="email"
            hint="In Texas, the e-mail TREC has on file for the license."
          />
          <SubmitButton busyLabel="Sending..." className="btn-primary w-full py-3 text-base">
            Send Me a Link
          </SubmitButton>
        </ValidatedForm>
      </section>
      <p className="mt-6 text-center text-sm text-slate-600">
        Oklahoma brokers: your first request goes to our staff, who confirm your license with OREC; ask again once they have.
      </p>
    </AccountFrame>
  );
}

function LinkRequested({ email }: { email: string }) {
  return (
    <CheckYourEmail
      actions={
        <p className="mt-8">
          <Link to="/" className="btn-outline py-3">
            Back to Home
          </Link>
        </p>
      }
    >
      <p>
        We've received your request for <strong className="break-all text-slate-900">{email}</strong>.
      </p>
      <p>{BROKER_LINK_ANSWER}</p>
    </CheckYourEmail>
  );
}
