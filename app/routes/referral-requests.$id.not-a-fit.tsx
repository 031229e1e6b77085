import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requestStatusHandlers } from "~/components/error-screens";
import { SubmitButton, TextareaField, useValidatedForm, ValidatedForm } from "~/components/form";
import { RequestSummary } from "~/components/request-summary";
import { notAFitSchema } from "~/domain/invitation-forms";
import { INVITATION_REFUSALS, NOT_A_FIT_REASON_MAX } from "~/domain/invitations";
import { PRODUCT_NAME } from "~/domain/product";
import { requireMember } from "~/server/auth/session.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { notFound } from "~/server/http.server";
import { declineInvitation, invitationsOf } from "~/server/invitations/invitations.server";
import { findRequestFor, REQUEST_NOT_FOUND } from "~/server/referral-requests/queries.server";
import { requestView } from "~/server/referral-requests/views.server";
import { StoreError } from "~/server/store/store.server";
import type { Services } from "~/server/services.server";
import type { Agent } from "~/domain/workbook/tabs";

export const meta: MetaFunction = () => [{ title: `Not a fit | ${PRODUCT_NAME}` }];

/** The request the member was invited to; 404 for anyone not invited to it. */
function invitedRequest(services: Pick<Services, "store">, id: string, member: Agent) {
  const found = findRequestFor(services, id, member);
  const invited = found !== undefined && invitationsOf(services, found.id).some((invitation) => invitation.agentEmail === member.email);
  if (!found || !invited) throw notFound(INVITATION_REFUSALS.notInvited);
  return found;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const found = invitedRequest(context.services, params.id ?? "", member);
  return { request: requestView(context.services, found, member.email, new Date()) };
}

/** The invited agent's "Not a fit": the poster sees it, with the reason, on the request's page. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const found = invitedRequest(context.services, params.id ?? "", member);
  const submission = await parseForm(request, notAFitSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  try {
    const result = await declineInvitation(context.services, {
      requestId: found.id,
      agent: member,
      reason: submission.value.reason,
      now: new Date(),
    });
    if (!result.ok) throw notFound(REQUEST_NOT_FOUND);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    console.error(`Not a fit for request ${found.id} not stored:`, error);
    return rejectSubmission(submission, { status: 503, formErrors: [INVITATION_REFUSALS.failed] });
  }
  return redirect("/member-dashboard#invitations");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={requestStatusHandlers} />;
}

export default function NotAFit() {
  const { request } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof notAFitSchema>(lastResult);
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6 sm:py-14">
      <section className="card space-y-6" aria-labelledby="not-a-fit-title">
        <h1 id="not-a-fit-title" className="text-2xl font-extrabold tracking-tight text-slate-900">
          Not a fit
        </h1>
        <RequestSummary request={request} />
        <p className="text-slate-700">
          {request.agentName} invited you to respond. Tell them this request is not a fit for you, so they can invite someone else.
        </p>
        <ValidatedForm form={form} className="space-y-5">
          <TextareaField
            field={fields.reason}
            label="Reason"
            optional
            rows={4}
            placeholder="e.g. I do not work that far north, or I am fully booked this month."
            hint={`${request.agentName} sees it beside your name. At most ${NOT_A_FIT_REASON_MAX} characters.`}
          />
          <div className="flex flex-wrap gap-3">
            <SubmitButton busyLabel="Sending...">Send Not a fit</SubmitButton>
            <Link to={`/referral-requests/${request.id}/respond`} className="btn-outline w-full sm:w-auto">
              Respond instead
            </Link>
          </div>
        </ValidatedForm>
      </section>
    </div>
  );
}
