import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requestStatusHandlers } from "~/components/error-screens";
import { SelectField, SubmitButton, TextField, useValidatedForm, ValidatedForm } from "~/components/form";
import { MARKET_STATE_NAMES, MARKET_STATES } from "~/domain/enums";
import { OUTREACH_MESSAGES } from "~/domain/outreach";
import { referOutsideSchema } from "~/domain/outreach-forms";
import { PRODUCT_NAME } from "~/domain/product";
import { isLive } from "~/domain/referral-requests/expiry";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice } from "~/server/flash.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { notFound } from "~/server/http.server";
import { inviteColleagues } from "~/server/outreach/outreach.server";
import { lookUpLicensee, requestArea, requestOutline } from "~/server/outreach/refer-outside.server";
import { findRequestFor, REQUEST_NOT_FOUND } from "~/server/referral-requests/queries.server";

export const meta: MetaFunction = () => [{ title: `Invite an Agent | ${PRODUCT_NAME}` }];

/** The poster's own live request: only they invite an outside agent to it. */
async function ownLiveRequest(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const member = await requireMember(request, context);
  const found = findRequestFor(context.services, id ?? "", member);
  if (!found) throw notFound(REQUEST_NOT_FOUND);
  const allowed = found.agentEmail === member.email && isLive(found, new Date());
  return { member, found, allowed };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { found, allowed } = await ownLiveRequest(request, context, params.id);
  if (!allowed) throw notFound(REQUEST_NOT_FOUND);
  return { requestId: found.id, title: found.title, area: requestArea(found) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { member, found, allowed } = await ownLiveRequest(request, context, params.id);
  const submission = await parseForm(request, referOutsideSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  if (!allowed) return rejectSubmission(submission, { status: 403, formErrors: [OUTREACH_MESSAGES.referNotOwn] });
  const { confirmed, ...colleague } = submission.value;
  const now = new Date();
  const lookup = lookUpLicensee(context.services, colleague, now);
  if (lookup.kind === "refused") return rejectSubmission(submission, { status: 400, fieldErrors: { licenseNumber: [lookup.message] } });
  // A Texas license is shown as TREC has it before anything is sent.
  if (lookup.kind === "found" && confirmed !== lookup.record.licenseNumber) return data({ ...submission.reply(), confirm: lookup.record });
  try {
    const result = await inviteColleagues(context.services, {
      inviter: member,
      colleagues: [{ ...colleague, fieldName: "email" }],
      note: undefined,
      request: { id: found.id, outline: requestOutline(found) },
      now,
      httpRequest: request,
    });
    if (!result.ok)
      return rejectSubmission(submission, { status: result.status, fieldErrors: result.fieldErrors, formErrors: result.formErrors });
  } catch (error) {
    console.error(`Invitation to join for request ${found.id} not sent:`, error);
    return rejectSubmission(submission, { status: 503, formErrors: [OUTREACH_MESSAGES.notSaved] });
  }
  return redirectWithNotice(context.services, `/referral-requests/${found.id}`, "referredOutside");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={requestStatusHandlers} />;
}

const stateOptions = MARKET_STATES.map((code) => ({ value: code, label: MARKET_STATE_NAMES[code] }));

export default function ReferOutside() {
  const { requestId, title, area } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const confirm = answer && "confirm" in answer ? answer.confirm : null;
  const [form, fields] = useValidatedForm<typeof referOutsideSchema>(answer, { id: "refer-outside", defaultValue: { licenseState: "TX" } });
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm">
        <Link to={`/referral-requests/${requestId}`} className="font-semibold text-brand-700 hover:underline">
          ← Back to the request
        </Link>
      </p>
      <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Know an agent in {area}?</h1>
      <p className="mt-3 text-lg text-slate-600">
        Few members serve {area} yet. Invite the agent you would call for &ldquo;{title}&rdquo;: they get one e-mail in your name with the
        request&apos;s area, type, price range and timeline (never your client&apos;s name or your description), and a link to join. Once
        staff approve them, they are invited to your request.
      </p>
      <section className="card mt-8" aria-labelledby="refer-title">
        <h2 id="refer-title" className="text-xl font-bold text-slate-900">
          The agent
        </h2>
        <ValidatedForm form={form} className="mt-6 space-y-5">
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField field={fields.name} label="Name" autoComplete="off" />
            <TextField field={fields.email} label="Email" type="email" autoComplete="off" />
            <TextField
              field={fields.licenseNumber}
              label="License number"
              autoComplete="off"
              optional
              hint="For a Texas license we check TREC's records."
            />
            <SelectField field={fields.licenseState} label="License state" placeholder="Select" options={stateOptions} optional />
          </div>
          {confirm ? (
            <div
              role="status"
              className="rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-brand-900"
              data-testid="trec-record"
            >
              <p className="font-bold">Is this the agent? TREC&apos;s record of license {confirm.licenseNumber}:</p>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="font-semibold">Name</dt>
                <dd>{confirm.fullName}</dd>
                <dt className="font-semibold">License status</dt>
                <dd>{confirm.status}</dd>
                <dt className="font-semibold">Sponsoring broker</dt>
                <dd>{confirm.sponsor || "None listed"}</dd>
              </dl>
              <input type="hidden" name={fields.confirmed.name} value={confirm.licenseNumber} />
            </div>
          ) : null}
          <SubmitButton busyLabel="Sending...">{confirm ? "Yes, send the invitation" : "Check and continue"}</SubmitButton>
        </ValidatedForm>
      </section>
    </div>
  );
}
