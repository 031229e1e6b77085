import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { IdempotencyKeyInput, SelectField, SubmitButton, TextareaField, useValidatedForm, ValidatedForm } from "~/components/form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorPanel, StatusBadge } from "~/components/error-screens";
import { RequestNotice } from "~/components/request-notice";
import {
  ALREADY_REPORTED,
  isReportKind,
  REPORT_KIND_LABELS,
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  reportPath,
} from "~/domain/moderation";
import { reportSchema } from "~/domain/report-form";
import { MESSAGES_UNAVAILABLE } from "~/domain/messages";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent } from "~/domain/workbook/tabs";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { newIdempotencyKey } from "~/server/idempotency-keys.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { notFound, serviceUnavailable } from "~/server/http.server";
import { unlessUnavailable } from "~/server/messages/conversations.server";
import { alreadyReported, fileReport, findReportable, type ReportedItem } from "~/server/moderation/reports.server";
import type { Services } from "~/server/services.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Report to Staff | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

const ITEM_NOT_FOUND = "Nothing to report here: the item does not exist or is not one you can see.";
const REPORT_FAILED = "Your report could not be sent just now. Please try again in a moment.";

const reasonOptions = REPORT_REASONS.map((reason) => ({ value: reason, label: REPORT_REASON_LABELS[reason] }));

/** The item the address names (`?kind=…&id=…`), if the member may report it; a 404 otherwise, whatever the reason. */
async function itemFromUrl(
  services: Pick<Services, "store" | "directory" | "messageQueries">,
  member: Agent,
  request: Request,
): Promise<ReportedItem> {
  const params = new URL(request.url).searchParams;
  const kind = params.get("kind");
  const id = params.get("id");
  if (!isReportKind(kind) || !id || id.length > 200) throw notFound(ITEM_NOT_FOUND);
  const item = await unlessUnavailable(findReportable(services, member, kind, id));
  // A message is read from the database, which can be out of reach for a moment.
  if (item === null) throw serviceUnavailable(MESSAGES_UNAVAILABLE);
  if (!item) throw notFound(ITEM_NOT_FOUND);
  return item;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const item = await itemFromUrl(context.services, member, request);
  const reported = alreadyReported(context.services, member, item);
  // "Sent" once, right after the report; from then on the page says it was already reported.
  const { notice, headers } = await takeNotice(context.services, request, ["reported"]);
  const body = {
    item: { kind: item.kind, title: item.title },
    notice: reported ? (notice ?? ALREADY_REPORTED) : null,
    idempotencyKey: newIdempotencyKey(),
  };
  return data(body, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const item = await itemFromUrl(context.services, member, request);
  const submission = await parseForm(request, reportSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const back = reportPath(item.kind, item.id);
  // A second report of the same item is answered before it counts against the limit: the page says it was already reported.
  if (alreadyReported(context.services, member, item)) return redirect(back);
  const allowed = limitMemberWrite(context, "report", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.report, allowed.retryAfterSeconds);
  try {
    const filed = await fileReport(context.services, { member, item, form: submission.value, now: new Date(), request });
    return filed === "sent" ? redirectWithNotice(context.services, back, "reported") : redirect(back);
  } catch (error) {
    console.error("Report not stored:", error);
    return rejectSubmission(submission, { status: 503, formErrors: [REPORT_FAILED] });
  }
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorPanel titleId="not-found-title" badge={<StatusBadge status={404} />} title="Nothing to report" text={ITEM_NOT_FOUND}>
            <Link to="/member-dashboard" className="btn-primary px-6 py-3 text-base">
              Back to Dashboard
            </Link>
          </ErrorPanel>
        ),
      }}
    />
  );
}

export default function ReportPage() {
  const { item, notice, idempotencyKey } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof reportSchema>(lastResult);
  const kind = REPORT_KIND_LABELS[item.kind];
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6 sm:py-14">
      <section className="card space-y-6" aria-labelledby="report-title">
        <h1 id="report-title" className="text-2xl font-extrabold tracking-tight text-slate-900">
          Report a {kind}
        </h1>
        <p className="text-slate-700">
          <span className="font-semibold text-slate-500">Reporting:</span> <span className="wrap-anywhere">{item.title}</span>
        </p>
        {notice ? (
          <>
            <RequestNotice text={notice} />
            <Link to="/member-dashboard" className="btn-outline">
              Back to Dashboard
            </Link>
          </>
        ) : (
          <>
            <p className="text-slate-600">Staff read every report and act on it. The member you report is not told who reported them.</p>
            <ValidatedForm form={form} className="space-y-5">
              <IdempotencyKeyInput field={fields.idempotencyKey} fresh={idempotencyKey} />
              <SelectField field={fields.reason} label="Reason" placeholder="Select a reason" options={reasonOptions} />
              <TextareaField
                field={fields.note}
                label="Note for staff"
                optional
                rows={4}
                placeholder={`What happened? (up to ${REPORT_NOTE_MAX.toLocaleString("en-US")} characters)`}
              />
              <SubmitButton busyLabel="Sending...">Send Report</SubmitButton>
            </ValidatedForm>
          </>
        )}
      </section>
    </div>
  );
}
