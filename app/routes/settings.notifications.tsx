import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SubmitButton, useValidatedForm, ValidatedForm } from "~/components/form";
import { controlProps, FieldError, initiallyChecked } from "~/components/field-parts";
import { PushDeviceButton } from "~/components/push-device-button";
import { SavedNotice } from "~/components/saved-notice";
import { useFlashNotice } from "~/components/use-flash-notice";
import { useHydrated } from "~/components/use-hydrated";
import { mailOffFor, notificationSettingsSchema } from "~/domain/notification-settings";
import { MAIL_KIND_DESCRIPTIONS, MAIL_KIND_LABELS, MAIL_KINDS, NOTIFICATION_SETTINGS_PATH, wantsMail } from "~/domain/notifications";
import { PRODUCT_NAME } from "~/domain/product";
import { PUSH_KIND_DESCRIPTIONS, PUSH_KINDS, pushOnFor, SETTINGS_ROWS, wantsPush, type PushKind } from "~/domain/push";
import { pushSubscriptionSchema, removeDeviceSchema } from "~/domain/push-subscription";
import { relativeTime } from "~/domain/relative-time";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { parseSubmission, readForm, rejectSubmission } from "~/server/forms.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Notification Settings | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

const SAVE_FAILED = "Your choices could not be saved. Please try again.";
const DEVICE_SAVE_FAILED = "This device could not be saved just now. Please try again in a moment.";
const NO_SUCH_DEVICE = "That device is not on your list any more.";
const PUSH_OFF = "Push notifications are not available on this site yet: your mail settings work as before.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { push } = context.services;
  const now = new Date();
  const { notice, headers } = await takeNotice(context.services, request, ["settingsSaved", "deviceAdded", "deviceRemoved"]);
  return data(
    {
      email: member.email,
      on: MAIL_KINDS.filter((kind) => wantsMail(member, kind)),
      pushOn: PUSH_KINDS.filter((kind) => wantsPush(member, kind)),
      notice,
      /** The key browsers subscribe with; null while push is not configured. */
      publicKey: push.publicKey ?? null,
      devices: push.devices(member).map((device) => ({
        id: device.id,
        name: device.deviceName || "Unnamed device",
        added: relativeTime(device.createdAt, now),
        lastNotified: device.lastSuccessAt ? relativeTime(device.lastSuccessAt, now) : null,
      })),
    },
    { headers },
  );
}

/**
 * Three forms post here: the settings (no `intent`), a device's subscription (`subscribe`,
 * posted by the page's script once the browser has one) and a device's Remove button
 * (`remove-device`). Each changes only the member's own row and devices.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { formData, refusal } = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "subscribe") return subscribeDevice(context, member, formData, refusal);
  if (intent === "remove-device") return removeDevice(context, member, formData, refusal);
  const submission = parseSubmission(formData, notificationSettingsSchema, refusal);
  if (submission.status !== "success") return rejectSubmission(submission);
  const allowed = limitMemberWrite(context, "settings", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.settings, allowed.retryAfterSeconds);
  const { on, push, pushShown } = submission.value;
  try {
    // Without JavaScript the push column is not on the page: its stored choices stay as they are.
    await context.services.store.agents.update(member.id, { mailOff: mailOffFor(on), ...(pushShown ? { pushOn: pushOnFor(push) } : {}) });
  } catch (error) {
    console.error(`Notification settings of agent ${member.id} not saved:`, error);
    return rejectSubmission(submission, { status: 503, formErrors: [SAVE_FAILED] });
  }
  // Only a stored choice is reported saved: the notice rides on the redirect after the write.
  return redirectWithNotice(context.services, NOTIFICATION_SETTINGS_PATH, "settingsSaved");
}

type ActionArgs = Parameters<typeof action>[0];
type Member = Awaited<ReturnType<typeof requireMember>>;
type Refusal = Awaited<ReturnType<typeof readForm>>["refusal"];

/** Stores this browser's subscription; the first device turns push on for every kind with push (the member unticks what they do not want). */
async function subscribeDevice(context: ActionArgs["context"], member: Member, formData: FormData, refusal: Refusal) {
  const { push, config, store } = context.services;
  const submission = parseSubmission(formData, pushSubscriptionSchema({ production: config.isProduction }), refusal);
  if (submission.status !== "success") return rejectSubmission(submission);
  if (!push.publicKey) return rejectSubmission(submission, { status: 503, formErrors: [PUSH_OFF] });
  const allowed = limitMemberWrite(context, "settings", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.settings, allowed.retryAfterSeconds);
  const { endpoint, p256dh, auth, deviceName } = submission.value;
  try {
    await push.subscribe(member, { endpoint, p256dh, auth, deviceName }, new Date());
    if ((member.pushOn ?? []).length === 0) await store.agents.update(member.id, { pushOn: [...PUSH_KINDS] });
  } catch (error) {
    console.error(`A push device of agent ${member.id} not saved:`, error);
    return rejectSubmission(submission, { status: 503, formErrors: [DEVICE_SAVE_FAILED] });
  }
  return redirectWithNotice(context.services, NOTIFICATION_SETTINGS_PATH, "deviceAdded");
}

async function removeDevice(context: ActionArgs["context"], member: Member, formData: FormData, refusal: Refusal) {
  const submission = parseSubmission(formData, removeDeviceSchema, refusal);
  if (submission.status !== "success") return data({ deviceProblem: NO_SUCH_DEVICE }, { status: 400 });
  const allowed = limitMemberWrite(context, "settings", member);
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.settings, allowed.retryAfterSeconds);
  try {
    const removed = await context.services.push.remove(member, submission.value.deviceId, new Date());
    if (!removed) return data({ deviceProblem: NO_SUCH_DEVICE }, { status: 404 });
  } catch (error) {
    console.error(`A push device of agent ${member.id} not removed:`, error);
    return data({ deviceProblem: DEVICE_SAVE_FAILED }, { status: 503 });
  }
  return redirectWithNotice(context.services, NOTIFICATION_SETTINGS_PATH, "deviceRemoved");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function NotificationSettings() {
  const { email, on, pushOn, ...loaded } = useLoaderData<typeof loader>();
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
      <SavedNotice text={lastResult ? null : notice} className="mt-6" />
      {/* Keyed by the stored choice, so after a save the boxes start again from what was stored. */}
      <SettingsForm key={`${on.join(",")}|${pushOn.join(",")}`} on={on} pushOn={pushOn} />
      <Devices />
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

function SettingsForm({ on, pushOn }: { on: string[]; pushOn: PushKind[] }) {
  const result = useActionData<typeof action>();
  const lastResult = result && "deviceProblem" in result ? undefined : result;
  const { publicKey } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const pushShown = hydrated && publicKey !== null;
  const [form, fields] = useValidatedForm<typeof notificationSettingsSchema>(lastResult, {
    id: "notification-settings",
    defaultValue: { on, push: pushOn },
  });
  return (
    <ValidatedForm form={form} className="card mt-8 space-y-6">
      <fieldset className="space-y-3" aria-describedby={fields.on.errors?.length ? fields.on.errorId : undefined}>
        <legend className="text-lg font-bold text-slate-900">Notify me about</legend>
        <p className="text-sm text-slate-600">
          Mails about your account (approval and password resets) always go. Every other mail has a link to turn its kind off. A push shows
          on the devices listed below; when it arrives, its mail waits 15 minutes and goes only if you have not read it by then.
        </p>
        {pushShown ? <input type="hidden" name="pushShown" value="1" /> : null}
        <ul className="space-y-2">
          {SETTINGS_ROWS.map(({ kind, push }) => {
            const box = { ...controlProps(fields.on), id: `${fields.on.id}-${kind}` };
            const pushBox = { ...controlProps(fields.push), id: `${fields.push.id}-${kind}` };
            return (
              <li
                key={kind}
                className="grid gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 sm:grid-cols-[1fr_11rem]"
              >
                <div className="flex items-start gap-3">
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
                </div>
                <div className="pl-7 text-sm sm:border-l sm:border-slate-200 sm:pl-3">
                  {!push ? (
                    <p className="text-slate-600">Mail only</p>
                  ) : pushShown ? (
                    <div className="flex items-start gap-2">
                      <input
                        type="checkbox"
                        {...pushBox}
                        value={kind}
                        defaultChecked={initiallyChecked(fields.push, kind)}
                        aria-describedby={`${pushBox.id}-about`}
                        className="mt-0.5 h-4 w-4 shrink-0 cursor-pointer rounded border-slate-300 accent-brand-700"
                      />
                      <div>
                        <label htmlFor={pushBox.id} className="cursor-pointer font-semibold text-slate-900">
                          Push <span className="sr-only">for {MAIL_KIND_LABELS[kind].toLowerCase()}</span>
                        </label>
                        <p id={`${pushBox.id}-about`} className="text-slate-600">
                          {PUSH_KIND_DESCRIPTIONS[kind as PushKind]}
                        </p>
                      </div>
                    </div>
                  ) : (
                    <p className="text-slate-600">{publicKey === null ? "Push is not available" : "Push needs JavaScript"}</p>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
        <FieldError field={fields.on} />
        <FieldError field={fields.push} />
      </fieldset>
      <SubmitButton busyLabel="Saving...">Save Settings</SubmitButton>
    </ValidatedForm>
  );
}

/** The member's devices with push, each with a Remove button (a plain form), and the button that adds this one. */
function Devices() {
  const { devices, publicKey } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const hydrated = useHydrated();
  const deviceProblem = result && "deviceProblem" in result ? result.deviceProblem : undefined;
  return (
    <section className="card mt-8 space-y-4" aria-labelledby="devices-title">
      <h2 id="devices-title" className="text-lg font-bold text-slate-900">
        Devices with push ({devices.length})
      </h2>
      {deviceProblem ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {deviceProblem}
        </p>
      ) : null}
      {devices.length === 0 ? (
        <p className="text-slate-600">No device gets push notifications yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {devices.map((device) => (
            <li key={device.id} className="flex flex-wrap items-center gap-3 py-3 first:pt-0 last:pb-0">
              <div className="min-w-0 flex-1">
                <p className="font-semibold wrap-anywhere text-slate-900">{device.name}</p>
                <p className="text-sm text-slate-600">
                  Added {device.added.toLowerCase()} ·{" "}
                  {device.lastNotified ? `last notification ${device.lastNotified.toLowerCase()}` : "no notification yet"}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="remove-device" />
                <input type="hidden" name="deviceId" value={device.id} />
                <button type="submit" className="btn-outline" aria-label={`Remove ${device.name}`}>
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {publicKey === null ? (
        <p className="text-sm text-slate-600">{PUSH_OFF}</p>
      ) : hydrated ? (
        <PushDeviceButton publicKey={publicKey} />
      ) : (
        <p className="text-sm text-slate-600">
          Push needs JavaScript: turn it on in this browser to get push notifications on this device. Your mail settings work without it.
        </p>
      )}
    </section>
  );
}
