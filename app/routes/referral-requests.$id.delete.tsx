import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { FormAlert, SubmitButton } from "~/components/form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requestStatusHandlers } from "~/components/error-screens";
import { RequestSummary } from "~/components/request-summary";
import { PRODUCT_NAME } from "~/domain/product";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice } from "~/server/flash.server";
import { deleteRequest } from "~/server/referral-requests/post-edit-delete.server";
import { requireOwnRequest } from "~/server/referral-requests/queries.server";
import { requestView } from "~/server/referral-requests/views.server";

export const meta: MetaFunction = () => [{ title: `Delete Request | ${PRODUCT_NAME}` }];

const DELETE_FAILED = "Failed to delete request. Please try again.";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const own = requireOwnRequest(context.services, params.id ?? "", member);
  return { request: requestView(context.services, own, member.email, new Date()) };
}

/** Soft delete by the owner only; anyone else gets 403 and the row is untouched. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const own = requireOwnRequest(context.services, params.id ?? "", member);
  try {
    await deleteRequest(context.services, own, new Date());
  } catch (error) {
    console.error("Request not deleted:", error);
    return data({ error: DELETE_FAILED }, { status: 503 });
  }
  return redirectWithNotice(context.services, "/referral-requests?tab=mine", "deleted");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={requestStatusHandlers} />;
}

export default function DeleteRequest() {
  const { request } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  // The safe choice has focus on arrival, so Enter or Space cancels rather than deletes.
  // `autoFocus` does it in the server's page; React applies it to form controls only.
  const cancel = useRef<HTMLAnchorElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6 sm:py-14">
      <section className="card space-y-6" aria-labelledby="delete-title">
        <h1 id="delete-title" className="text-2xl font-extrabold tracking-tight text-slate-900">
          Delete Request
        </h1>
        <RequestSummary request={request} />
        <p className="text-lg font-semibold text-slate-900">Are you sure you want to delete this request?</p>
        <p className="text-slate-600">Other agents will no longer see it. Its responses stay in your records.</p>
        <Form method="post" className="space-y-4">
          {failed ? <FormAlert errors={[failed.error]} /> : null}
          <div className="flex flex-wrap gap-3">
            <SubmitButton busyLabel="Deleting..." className="btn w-full bg-red-600 text-white hover:bg-red-700 sm:w-auto">
              Delete Request
            </SubmitButton>
            <Link
              ref={cancel}
              to="/referral-requests?tab=mine"
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the confirmation page opens on its safe choice, so Enter keeps the request (decision 0019).
              autoFocus
              className="btn-outline w-full sm:w-auto"
            >
              Cancel
            </Link>
          </div>
        </Form>
      </section>
    </div>
  );
}
