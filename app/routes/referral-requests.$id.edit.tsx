import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { SubmitButton, useValidatedForm, ValidatedForm } from "~/components/form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requestStatusHandlers } from "~/components/error-screens";
import { RequestFormFields } from "~/components/request-form-fields";
import { hoursLeft } from "~/domain/invitations";
import { PRODUCT_NAME } from "~/domain/product";
import { isLive } from "~/domain/referral-requests/expiry";
import { editRequestSchema } from "~/domain/referral-requests/forms";
import { REQUEST_TYPE_TITLES } from "~/domain/referral-requests/labels";
import type { ReferralRequest } from "~/domain/workbook/tabs";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice } from "~/server/flash.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { updateRequest } from "~/server/referral-requests/post-edit-delete.server";
import { requireOwnRequest } from "~/server/referral-requests/queries.server";

export const meta: MetaFunction = () => [{ title: `Edit Request | ${PRODUCT_NAME}` }];

const EXPIRED = "This request has expired and can no longer be edited.";
const SAVE_FAILED = "Failed to update request. Please try again.";

/** The form opens with the request as stored; blank optional cells open as "not chosen". */
function formValues(request: ReferralRequest, now: Date) {
  return {
    title: request.title,
    location: request.location,
    state: request.state,
    specialty: request.specialty,
    priceRange: request.priceRange,
    clientType: request.clientType || undefined,
    timeline: request.timeline || undefined,
    contactPreference: request.contactPreference || undefined,
    listingAddress: request.listingAddress,
    listingMLS: request.listingMLS,
    description: request.description,
    urgent: request.urgent,
    respondByHours: hoursLeft(request.respondBy, now),
  };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const own = requireOwnRequest(context.services, params.id ?? "", member);
  const now = new Date();
  return { id: own.id, type: own.requestType, values: formValues(own, now), live: isLive(own, now) };
}

/** Ownership is checked before anything is read from the form: another member's POST gets 403 and changes nothing. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const own = requireOwnRequest(context.services, params.id ?? "", member);
  const submission = await parseForm(request, editRequestSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const now = new Date();
  if (!isLive(own, now)) return rejectSubmission(submission, { status: 409, formErrors: [EXPIRED] });
  try {
    await updateRequest(context.services, own, submission.value, now);
  } catch (error) {
    console.error("Request not updated:", error);
    return rejectSubmission(submission, { status: 503, formErrors: [SAVE_FAILED] });
  }
  return redirectWithNotice(context.services, "/referral-requests?tab=mine", "updated");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={requestStatusHandlers} />;
}

export default function EditRequest() {
  const { id, type, values, live } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof editRequestSchema>(lastResult, { id: `edit-${id}`, defaultValue: values });
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm">
        <Link to={`/referral-requests/${id}`} className="font-semibold text-brand-700 hover:underline">
          ← Back to Request
        </Link>
      </p>
      <section className="card mt-4" aria-labelledby="edit-title">
        <h1 id="edit-title" className="text-2xl font-extrabold tracking-tight text-slate-900">
          Edit Request
        </h1>
        <p className="mt-1 text-slate-600">
          Type: <span className="font-semibold text-slate-800">{REQUEST_TYPE_TITLES[type]}</span> (the type of a request cannot be changed)
        </p>
        {live ? (
          <ValidatedForm form={form} className="mt-6 space-y-5">
            <RequestFormFields fields={fields} type={type} />
            <div className="flex flex-wrap gap-3">
              <SubmitButton busyLabel="Saving...">Save Changes</SubmitButton>
              <Link to="/referral-requests?tab=mine" className="btn-outline w-full sm:w-auto">
                Cancel
              </Link>
            </div>
          </ValidatedForm>
        ) : (
          <p className="mt-6 rounded-lg bg-slate-100 px-4 py-3 text-sm font-medium text-slate-700">{EXPIRED}</p>
        )}
      </section>
    </div>
  );
}
