import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { IdempotencyKeyInput, SubmitButton, useValidatedForm, ValidatedForm } from "~/components/form";
import { ArrowRightIcon, ClockIcon, ShieldCheckIcon } from "~/components/icons";
import { RequestFormFields } from "~/components/request-form-fields";
import { REQUEST_LIFETIME_DAYS } from "~/domain/referral-requests/expiry";
import { POST_FAILED, postRequestSchema } from "~/domain/referral-requests/forms";
import { parseRequestType, REQUEST_TYPE_LABELS, REQUEST_TYPE_TITLES } from "~/domain/referral-requests/labels";
import { PRODUCT_NAME } from "~/domain/product";
import { REQUEST_TYPE_VALUES, type RequestType } from "~/domain/enums";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice } from "~/server/flash.server";
import { newIdempotencyKey } from "~/server/idempotency-keys.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { postRequest } from "~/server/referral-requests/post-edit-delete.server";
import { mailUrgentRequest } from "~/server/referral-requests/urgent-mail.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Post a Request | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMember(request, context);
  return { type: parseRequestType(new URL(request.url).searchParams.get("type")), idempotencyKey: newIdempotencyKey() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const submission = await parseForm(request, postRequestSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const allowed = limitMemberWrite(context, "request", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.request, allowed.retryAfterSeconds);
  let posted;
  try {
    posted = await postRequest(context.services, member, submission.value, new Date());
  } catch (error) {
    console.error("Request not posted:", error);
    return rejectSubmission(submission, { status: 503, formErrors: [POST_FAILED] });
  }
  // Queued: the poster is not kept waiting for a state's worth of mail.
  if (posted.urgent) mailUrgentRequest(context.services, posted, request);
  // The poster lands on the request's page, where its best-fit agents wait to be invited.
  return redirectWithNotice(context.services, `/referral-requests/${posted.id}`, "posted");
}

const TYPE_DESCRIPTIONS: Record<RequestType, string> = {
  referral: "Refer a buyer or seller client to a trusted agent in another market.",
  listing: "Share a listing and find agents with buyers for it.",
  buyer: "Find an agent to represent a buyer in their market.",
};

export default function PostRequest() {
  const { type, idempotencyKey } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm">
        <Link to="/referral-requests" className="font-semibold text-brand-700 hover:underline">
          ← Back to Requests
        </Link>
      </p>
      <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Post a Request</h1>
      <p className="mt-3 text-lg text-slate-600">Reach verified agents across Texas and Oklahoma.</p>
      {type ? <RequestForm type={type} idempotencyKey={idempotencyKey} /> : <TypeChoice />}
    </div>
  );
}

/** The type is chosen by link, so the form for it opens the same way with or without JavaScript. */
function TypeChoice() {
  return (
    <section className="mt-8" aria-labelledby="type-title">
      <h2 id="type-title" className="text-lg font-bold text-slate-900">
        What would you like to post?
      </h2>
      <ul className="mt-4 grid gap-4">
        {REQUEST_TYPE_VALUES.map((value) => (
          <li key={value}>
            <Link
              to={`?type=${value}`}
              className="card flex items-center justify-between gap-4 transition-colors hover:border-brand-600 hover:bg-brand-50/40"
            >
              <span>
                <span className="block text-lg font-bold text-slate-900">{REQUEST_TYPE_TITLES[value]}</span>
                <span className="mt-1 block text-slate-600">{TYPE_DESCRIPTIONS[value]}</span>
              </span>
              <ArrowRightIcon className="h-5 w-5 shrink-0 text-brand-700" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RequestForm({ type, idempotencyKey }: { type: RequestType; idempotencyKey: string }) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof postRequestSchema>(lastResult, { id: `post-${type}` });
  return (
    <section className="card mt-8" aria-labelledby="form-title">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 pb-5">
        <div>
          <p className="text-sm font-semibold text-slate-500">Request Type</p>
          <h2 id="form-title" className="text-xl font-bold text-slate-900">
            {REQUEST_TYPE_TITLES[type]}
          </h2>
        </div>
        <Link to="/post-request" className="btn-outline">
          Change Type
        </Link>
      </div>
      <ValidatedForm form={form} className="mt-6 space-y-5">
        <input type="hidden" name={fields.requestType.name} value={type} />
        <IdempotencyKeyInput field={fields.idempotencyKey} fresh={idempotencyKey} />
        <RequestFormFields fields={fields} type={type} />
        <div className="space-y-2 rounded-lg bg-brand-50 p-4 text-sm text-brand-900">
          <p className="flex items-start gap-2">
            <ShieldCheckIcon className="h-5 w-5 shrink-0" />
            Your request will be visible to verified agents in the network.
          </p>
          <p className="flex items-start gap-2">
            <ClockIcon className="h-5 w-5 shrink-0" />
            It expires automatically after {REQUEST_LIFETIME_DAYS} days.
          </p>
        </div>
        <SubmitButton busyLabel="Posting...">Post {REQUEST_TYPE_LABELS[type]} Request</SubmitButton>
      </ValidatedForm>
    </section>
  );
}
