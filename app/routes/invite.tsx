import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { AnyField } from "~/components/field-parts";
import { SelectField, SubmitButton, TextareaField, TextField, useValidatedForm, ValidatedForm, type FormResult } from "~/components/form";
import { SavedNotice } from "~/components/saved-notice";
import { useFlashNotice } from "~/components/use-flash-notice";
import { MARKET_STATE_NAMES, MARKET_STATES } from "~/domain/enums";
import { COLLEAGUES_PER_FORM, OUTREACH_MESSAGES, OUTREACH_OUTCOME_LABELS } from "~/domain/outreach";
import { inviteColleaguesSchema, remindSchema } from "~/domain/outreach-forms";
import { PRODUCT_NAME } from "~/domain/product";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { invitationsSentBy, inviteColleagues, remindColleague } from "~/server/outreach/outreach.server";

export const meta: MetaFunction = () => [{ title: `Invite a Colleague | ${PRODUCT_NAME}` }];

const INVITE_PATH = "/invite";
/** Lines the form opens with; `?rows=10` opens all ten. */
const ROWS_AT_FIRST = 3;

function rowsWanted(url: URL): number {
  const asked = Number(url.searchParams.get("rows"));
  return Number.isInteger(asked) && asked > ROWS_AT_FIRST ? Math.min(asked, COLLEAGUES_PER_FORM) : ROWS_AT_FIRST;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { notice, headers } = await takeNotice(context.services, request, ["colleaguesInvited", "colleagueReminded"]);
  const sent = invitationsSentBy(context.services, member, new Date());
  return data({ rows: rowsWanted(new URL(request.url)), sent, notice }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const reminding = new URL(request.url).searchParams.get("remind") !== null;
  return reminding ? remind(request, context, member) : invite(request, context, member);
}

type Member = Awaited<ReturnType<typeof requireMember>>;

async function invite(request: Request, context: ActionFunctionArgs["context"], member: Member) {
  const submission = await parseForm(request, inviteColleaguesSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  try {
    const result = await inviteColleagues(context.services, {
      inviter: member,
      colleagues: submission.value.colleagues,
      note: submission.value.note,
      now: new Date(),
      httpRequest: request,
    });
    if (!result.ok) {
      const formErrors = result.sent > 0 ? [...result.formErrors, `${result.sent} of your invitations were sent.`] : result.formErrors;
      return rejectSubmission(submission, { status: result.status, fieldErrors: result.fieldErrors, formErrors });
    }
  } catch (error) {
    console.error("Invitations to join not sent:", error);
    return rejectSubmission(submission, { status: 503, formErrors: [OUTREACH_MESSAGES.notSaved] });
  }
  return redirectWithNotice(context.services, INVITE_PATH, "colleaguesInvited");
}

async function remind(request: Request, context: ActionFunctionArgs["context"], member: Member) {
  const submission = await parseForm(request, remindSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const result = await remindColleague(context.services, {
    inviter: member,
    outreachId: submission.value.outreachId,
    now: new Date(),
    httpRequest: request,
  }).catch((error: unknown) => {
    console.error("Reminder not sent:", error);
    return { ok: false as const, status: 503, message: OUTREACH_MESSAGES.notSaved };
  });
  if (!result.ok) return rejectSubmission(submission, { status: result.status, formErrors: [result.message] });
  return redirectWithNotice(context.services, INVITE_PATH, "colleagueReminded");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

const stateOptions = MARKET_STATES.map((code) => ({ value: code, label: MARKET_STATE_NAMES[code] }));

/** The server's answer with the colleagues' input flattened to the fields' names (`colleagues[0].email`), as the fields read it. */
function withFlatInput(result: FormResult | undefined): FormResult | undefined {
  const input = result?.initialValue;
  if (!input) return result;
  const flat: Record<string, unknown> = { note: input.note };
  const colleagues = Array.isArray(input.colleagues) ? (input.colleagues as unknown[]) : [];
  colleagues.forEach((colleague, index) => {
    if (typeof colleague !== "object" || colleague === null) return;
    for (const [key, value] of Object.entries(colleague)) flat[`colleagues[${index}].${key}`] = value;
  });
  return { ...result, initialValue: flat };
}

export default function Invite() {
  const { rows, sent, ...loaded } = useLoaderData<typeof loader>();
  const notice = useFlashNotice(loaded.notice);
  const answer = useActionData<typeof action>();
  const lastResult = withFlatInput(answer);
  const [form, fields] = useValidatedForm<typeof inviteColleaguesSchema>(lastResult, { id: "invite" });
  const field = (name: string) => (fields as Record<string, AnyField>)[name]!;
  const typedRows = Object.keys(lastResult?.initialValue ?? {}).reduce((most, name) => {
    const index = /^colleagues\[(\d+)\]/.exec(name)?.[1];
    return index === undefined ? most : Math.max(most, Number(index) + 1);
  }, 0);
  const lines = Math.min(COLLEAGUES_PER_FORM, Math.max(rows, typedRows));
  const listError = lastResult?.error?.colleagues?.[0];

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm">
        <Link to="/member-dashboard" className="font-semibold text-brand-700 hover:underline">
          ← Back to Dashboard
        </Link>
      </p>
      <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Invite a Colleague</h1>
      <p className="mt-3 text-lg text-slate-600">
        The network is worth what its members cover. Bring in the agents you already send clients to: each gets one e-mail from{" "}
        {PRODUCT_NAME} in your name, with a link to join.
      </p>
      <SavedNotice text={answer ? null : notice} className="mt-6" />

      <section className="card mt-8" aria-labelledby="invite-form-title">
        <h2 id="invite-form-title" className="text-xl font-bold text-slate-900">
          Who should join?
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Up to {COLLEAGUES_PER_FORM} at a time. We only ever write to addresses you type here, once.
        </p>
        <ValidatedForm form={form} className="mt-6 space-y-6">
          {listError ? (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {listError}
            </p>
          ) : null}
          {Array.from({ length: lines }, (_, index) => (
            <fieldset key={index} className="space-y-4 rounded-lg border border-slate-200 p-4">
              <legend className="px-1 text-sm font-semibold text-slate-700">Colleague {index + 1}</legend>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField field={field(`colleagues[${index}].name`)} label="Name" autoComplete="off" optional={index > 0} />
                <TextField field={field(`colleagues[${index}].email`)} label="Email" type="email" autoComplete="off" optional={index > 0} />
                <TextField field={field(`colleagues[${index}].licenseNumber`)} label="License number" autoComplete="off" optional />
                <SelectField
                  field={field(`colleagues[${index}].licenseState`)}
                  label="License state"
                  placeholder="Select"
                  options={stateOptions}
                  optional
                />
              </div>
            </fieldset>
          ))}
          {lines < COLLEAGUES_PER_FORM ? (
            <p className="text-sm">
              <Link to={`?rows=${COLLEAGUES_PER_FORM}`} className="font-semibold text-brand-700 hover:underline">
                Invite more at once (up to {COLLEAGUES_PER_FORM})
              </Link>
            </p>
          ) : null}
          <TextareaField
            field={fields.note}
            label="A personal line"
            rows={3}
            optional
            hint="Quoted in the e-mail, e.g. why you would like them in the network."
          />
          <SubmitButton busyLabel="Sending...">Send invitations</SubmitButton>
        </ValidatedForm>
      </section>

      <section className="card mt-8" aria-labelledby="sent-title">
        <h2 id="sent-title" className="text-xl font-bold text-slate-900">
          Your invitations
        </h2>
        {sent.length === 0 ? (
          <p className="mt-3 text-slate-600">You have not invited anyone yet.</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100">
            {sent.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-semibold text-slate-900">{invitation.name}</p>
                  <p className="break-all text-sm text-slate-600">{invitation.email}</p>
                  <p className="text-sm text-slate-500">
                    Invited {invitation.sentOn}
                    {invitation.reminded ? " · reminded" : ""}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800" data-testid="outreach-outcome">
                    {OUTREACH_OUTCOME_LABELS[invitation.outcome]}
                  </span>
                  {invitation.canRemind ? (
                    <Form method="post" action={`${INVITE_PATH}?remind`}>
                      <input type="hidden" name="intent" value="remind" />
                      <input type="hidden" name="outreachId" value={invitation.id} />
                      <button type="submit" className="btn-outline">
                        Send a reminder
                      </button>
                    </Form>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
