import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { IdempotencyKeyInput, SubmitButton, TextareaField, useValidatedForm, ValidatedForm } from "~/components/form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requestStatusHandlers } from "~/components/error-screens";
import { RequestSummary } from "~/components/request-summary";
import { PRODUCT_NAME } from "~/domain/product";
import { isLive } from "~/domain/referral-requests/expiry";
import { respondSchema } from "~/domain/referral-requests/forms";
import { REQUEST_CLOSED } from "~/domain/referral-requests/labels";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { publicUrl } from "~/server/accounts/urls.server";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice } from "~/server/flash.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { newIdempotencyKey } from "~/server/idempotency-keys.server";
import { notFound } from "~/server/http.server";
import { findRequestFor, REQUEST_NOT_FOUND } from "~/server/referral-requests/queries.server";
import { respondToRequest } from "~/server/referral-requests/respond.server";
import { requestView } from "~/server/referral-requests/views.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Respond to Request | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

const OWN_REQUEST = "This is your own request: other agents respond to it.";
const SEND_FAILED = "Failed to send response. Please try again.";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const found = findRequestFor(context.services, params.id ?? "", member);
  if (!found) throw notFound(REQUEST_NOT_FOUND);
  const now = new Date();
  return {
    request: requestView(context.services, found, member.email, now),
    live: isLive(found, now),
    idempotencyKey: newIdempotencyKey(),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { services } = context;
  const found = findRequestFor(services, params.id ?? "", member);
  if (!found) throw notFound(REQUEST_NOT_FOUND);
  const submission = await parseForm(request, respondSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const allowed = limitMemberWrite(context, "response", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.response, allowed.retryAfterSeconds);

  let result: Awaited<ReturnType<typeof respondToRequest>>;
  try {
    result = await respondToRequest(services, {
      requestId: found.id,
      member,
      message: submission.value.message,
      idempotencyKey: submission.value.idempotencyKey,
      now: new Date(),
      link: publicUrl(services.config, `/referral-requests/${found.id}`, request),
      request,
    });
  } catch (error) {
    console.error("Response not stored:", error);
    return rejectSubmission(submission, { status: 503, formErrors: [SEND_FAILED] });
  }
  if (result.ok) return redirectWithNotice(services, "/referral-requests", "responded");
  if (result.reason === "missing") throw notFound(REQUEST_NOT_FOUND);
  if (result.reason === "own") return rejectSubmission(submission, { status: 403, formErrors: [OWN_REQUEST] });
  return rejectSubmission(submission, { status: 409, formErrors: [REQUEST_CLOSED] });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={requestStatusHandlers} />;
}

export default function RespondToRequest() {
  const { request, live, idempotencyKey } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof respondSchema>(lastResult);
  const open = live && !request.isOwn;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6 sm:py-14">
      <section className="card space-y-6" aria-labelledby="respond-title">
        <h1 id="respond-title" className="text-2xl font-extrabold tracking-tight text-slate-900">
          Respond to Request
        </h1>
        <RequestSummary request={request} />
        {open || lastResult ? (
          <ValidatedForm form={form} className="space-y-5">
            <IdempotencyKeyInput field={fields.idempotencyKey} fresh={idempotencyKey} />
            <TextareaField
              field={fields.message}
              label="Your Message"
              rows={6}
              placeholder="Introduce yourself and say how you can help this agent's client."
              hint={`${request.agentName} gets your message by e-mail with a link to this request.`}
            />
            <div className="flex flex-wrap gap-3">
              <SubmitButton busyLabel="Sending...">Send Response</SubmitButton>
              <Link to="/referral-requests" className="btn-outline w-full sm:w-auto">
                Cancel
              </Link>
            </div>
          </ValidatedForm>
        ) : (
          <div className="space-y-4">
            <p className="rounded-lg bg-slate-100 px-4 py-3 text-sm font-medium text-slate-700">
              {request.isOwn ? OWN_REQUEST : REQUEST_CLOSED}
            </p>
            <Link to="/referral-requests" className="btn-outline">
              Back to Requests
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}
