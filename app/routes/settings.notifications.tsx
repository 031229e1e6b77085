import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { SubmitButton, useValidatedForm, ValidatedForm } from "~/components/form";
import { controlProps, FieldError, initiallyChecked } from "~/components/field-parts";
import { useFlashNotice } from "~/components/use-flash-notice";
import { mailOffFor, notificationSettingsSchema } from "~/domain/notification-settings";
import { MAIL_KIND_DESCRIPTIONS, MAIL_KIND_LABELS, MAIL_KINDS, NOTIFICATION_SETTINGS_PATH, wantsMail } from "~/domain/notifications";
import { PRODUCT_NAME } from "~/domain/product";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Notification Settings | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

const SAVE_FAILED = "Your choices could not be saved. Please try again.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { notice, headers } = await takeNotice(context.services, request, ["settingsSaved"]);
  return data({ email: member.email, on: MAIL_KINDS.filter((kind) => wantsMail(member, kind)), notice }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const submission = await parseForm(request, notificationSettingsSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const allowed = limitMemberWrite(context, "settings", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.settings, allowed.retryAfterSeconds);
  try {
    await context.services.store.agents.update(member.id, { mailOff: mailOffFor(submission.value.on) });
  } catch (error) {
    console.error(`Notification settings of agent ${member.id} not saved:`, error);
    return rejectSubmission(submission, { status: 503, formErrors: [SAVE_FAILED] });
  }
  // Only a stored choice is reported saved: the notice rides on the redirect after the write.
  return redirectWithNotice(context.services, NOTIFICATION_SETTINGS_PATH, "settingsSaved");
}

export default function NotificationSettings() {
  const { email, on, ...loaded } = useLoaderData<typeof loader>();
  const notice = useFlashNotice(loaded.notice);
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Notification Settings</h1>
          <p className="mt-2 text-slate-600">
            Mail goes to <strong className="break-all text-slate-800">{email}</strong>
          </p>
        </div>
        <Link to="/member-dashboard" className="btn-outline">
          Back to Dashboard
        </Link>
      </div>
      {notice && !lastResult ? (
        <p role="status" className="mt-6 rounded-lg border border-green-200 bg-green-50 px-4 py-3 font-medium text-green-900">
          {notice}
        </p>
      ) : null}
      {/* Keyed by the stored choice, so after a save the boxes start again from what was stored. */}
      <SettingsForm key={on.join(",")} on={on} />
      <section className="card mt-8 space-y-2" aria-labelledby="calendar-subscribe-title">
        <h2 id="calendar-subscribe-title" className="text-lg font-bold text-slate-900">
          Subscribe to your calendar
        </h2>
        <p className="text-sm text-slate-600">
          Your Respond by times, expected closings and fee due dates in your own calendar app, kept up to date.{" "}
          <Link to="/settings/calendar" className="font-semibold text-brand-700 hover:underline">
            Get your calendar link
          </Link>
        </p>
      </section>
    </div>
  );
}

function SettingsForm({ on }: { on: string[] }) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof notificationSettingsSchema>(lastResult, {
    id: "notification-settings",
    defaultValue: { on },
  });
  return (
    <ValidatedForm form={form} className="card mt-8 space-y-6">
      <fieldset className="space-y-3" aria-describedby={fields.on.errors?.length ? fields.on.errorId : undefined}>
        <legend className="text-lg font-bold text-slate-900">Mail me about</legend>
        <p className="text-sm text-slate-600">
          Mails about your account (approval and password resets) always go. Every other mail has a link to turn its kind off.
        </p>
        <ul className="space-y-2">
          {MAIL_KINDS.map((kind) => {
            const box = { ...controlProps(fields.on), id: `${fields.on.id}-${kind}` };
            return (
              <li
                key={kind}
                className="flex items-start gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="checkbox"
                  {...box}
                  value={kind}
                  defaultChecked={initiallyChecked(fields.on, kind)}
                  aria-describedby={`${box.id}-about`}
                  className="mt-1 h-4 w-4 shrink-0 cursor-pointer rounded border-slate-300 accent-brand-700"
                />
                {/* The label is the kind's name alone; what it means is the box's description. */}
                <div>
                  <label htmlFor={box.id} className="block cursor-pointer font-semibold text-slate-900">
                    {MAIL_KIND_LABELS[kind]}
                  </label>
                  <p id={`${box.id}-about`} className="mt-0.5 text-sm text-slate-600">
                    {MAIL_KIND_DESCRIPTIONS[kind]}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
        <FieldError field={fields.on} />
      </fieldset>
      <SubmitButton busyLabel="Saving...">Save Settings</SubmitButton>
    </ValidatedForm>
  );
}
