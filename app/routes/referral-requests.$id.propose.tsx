import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { IdempotencyKeyInput, SubmitButton, useValidatedForm, ValidatedForm } from "~/components/form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requestStatusHandlers } from "~/components/error-screens";
import { ReferralProposalFields } from "~/components/referral-proposal-fields";
import { PRODUCT_NAME } from "~/domain/product";
import { PROPOSAL_FAILED, proposalDefaults, proposalSchema } from "~/domain/referrals/agreement";
import type { Agent } from "~/domain/workbook/tabs";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { publicUrl } from "~/server/accounts/urls.server";
import { requireMember } from "~/server/auth/session.server";
import { newIdempotencyKey } from "~/server/idempotency-keys.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { notFound } from "~/server/http.server";
import { hasBrokerDetails, proposeReferral } from "~/server/referrals/referrals.server";
import { findRequestFor } from "~/server/referral-requests/queries.server";
import { responsesTo } from "~/server/referral-requests/respond.server";
import type { Services } from "~/server/services.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Propose referral | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

const RESPONSE_NOT_FOUND = "Response not found";

/**
 * The request and the response a referral is proposed on: only the request's poster, on a
 * response their request's page shows them (not one staff hid, nor of a member blocked
 * either way), and that responder reach it.
 */
function proposalTarget(services: Pick<Services, "store">, requestId: string, url: URL, member: Agent) {
  const request = findRequestFor(services, requestId, member);
  const response = services.store.responses.get(url.searchParams.get("response") ?? "");
  if (!request || !response || response.requestId !== request.id) throw notFound(RESPONSE_NOT_FOUND);
  const isPoster = request.agentEmail === member.email;
  const reachable = isPoster
    ? responsesTo(services, request.id, member).some((shown) => shown.id === response.id)
    : response.fromEmail === member.email;
  if (!reachable) throw notFound(RESPONSE_NOT_FOUND);
  return { request, response, isPoster, otherName: isPoster ? response.fromName : request.agentName };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { request: found, response, isPoster, otherName } = proposalTarget(context.services, params.id ?? "", new URL(request.url), member);
  return {
    title: found.title,
    responseId: response.id,
    otherName: otherName.trim() || "the other agent",
    defaults: proposalDefaults(found, isPoster),
    idempotencyKey: newIdempotencyKey(),
    brokerMissing: !hasBrokerDetails(member),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { services } = context;
  const { request: found, response } = proposalTarget(services, params.id ?? "", new URL(request.url), member);
  const submission = await parseForm(request, proposalSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const allowed = limitMemberWrite(context, "referral", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.referral, allowed.retryAfterSeconds);
  let result: Awaited<ReturnType<typeof proposeReferral>>;
  try {
    result = await proposeReferral(services, {
      requestId: found.id,
      responseId: response.id,
      member,
      input: submission.value,
      now: new Date(),
      link: (id) => publicUrl(services.config, `/referrals/${id}`, request),
    });
  } catch (error) {
    console.error("Referral not stored:", error);
    return rejectSubmission(submission, { status: 503, formErrors: [PROPOSAL_FAILED] });
  }
  if (!result.ok) return rejectSubmission(submission, { status: result.status, formErrors: [result.message] });
  return redirect(`/referrals/${result.referral.id}`);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={requestStatusHandlers} />;
}

export default function ProposeReferral() {
  const { title, responseId, otherName, defaults, idempotencyKey, brokerMissing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof proposalSchema>(lastResult, { defaultValue: defaults });
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6 sm:py-14">
      <section className="card space-y-6" aria-labelledby="propose-title">
        <div className="space-y-2">
          <h1 id="propose-title" className="text-2xl font-extrabold tracking-tight text-slate-900">
            Propose referral
          </h1>
          <p className="text-slate-600">
            With <span className="font-semibold text-slate-800">{otherName}</span>, on the request{" "}
            <span className="font-semibold wrap-anywhere text-slate-800">{title}</span>. The agreement is between your sponsoring brokers:
            both of you sign it once, and each broker approves it or you attest their authority; changing any term later asks both of you to
            sign again.
          </p>
        </div>
        {brokerMissing ? (
          <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900" role="status">
            Add your sponsoring broker&apos;s name and license number in{" "}
            <Link to="/edit-profile" className="underline">
              Edit profile
            </Link>{" "}
            first: referral fees are paid broker to broker.
          </p>
        ) : null}
        <ValidatedForm form={form} action={`?response=${encodeURIComponent(responseId)}`} className="space-y-5">
          <IdempotencyKeyInput field={fields.idempotencyKey} fresh={idempotencyKey} />
          <ReferralProposalFields fields={fields} otherName={otherName} />
          <div className="flex flex-wrap gap-3">
            <SubmitButton busyLabel="Proposing...">Propose referral</SubmitButton>
            <Link to=".." relative="path" className="btn-outline w-full sm:w-auto">
              Cancel
            </Link>
          </div>
        </ValidatedForm>
      </section>
    </div>
  );
}
