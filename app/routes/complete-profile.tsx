import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { BioField } from "~/components/bio-field";
import { SelectField, SubmitButton, TextField, useValidatedForm, ValidatedForm } from "~/components/form";
import { CheckCircleIcon, ShieldCheckIcon } from "~/components/icons";
import { EmailTakenHelp } from "~/components/registration-frame";
import { PhotoField } from "~/components/photo-field";
import { SpecialtyCheckboxes } from "~/components/specialty-checkboxes";
import { MARKET_STATE_NAMES, MARKET_STATES } from "~/domain/enums";
import { PRODUCT_NAME } from "~/domain/product";
import { EMAIL_TAKEN_MESSAGE, emailTakenHelp, emailTakenMessage } from "~/domain/account-messages";
import { profileCompletionSchema } from "~/domain/registration";
import { brokerFieldsHint } from "~/domain/sponsor";
import type { MembershipType } from "~/domain/workbook/tabs";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { publicUrl } from "~/server/accounts/urls.server";
import { parseSubmission, rejectSubmission } from "~/server/forms.server";
import { photoFormRefusal, readPhotoForm } from "~/server/images/photo-form.server";
import { photoFromUpload } from "~/server/images/save-photo.server";
import {
  createAgent,
  EmailTakenError,
  ownRegistration,
  registeredAgent,
  sendRegistrationMails,
} from "~/server/registration/create-agent.server";
import { brokerSource, fillBrokerFromTrec, unfilledBrokerErrors } from "~/server/registration/broker-from-trec.server";
import { clearDraft, readDraft } from "~/server/registration/draft.server";
import { membershipForDraft } from "~/server/registration/vip.server";
import { limitVisitorWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Complete Your Agent Profile | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const draft = await readDraft(context.services, request);
  if (!draft) throw redirect("/register");
  const membershipType = membershipForDraft(context.services, draft);
  const trecLoaded = context.services.licenses.dataLoaded();
  return { fullName: draft.fullName, email: draft.email, state: draft.state, membershipType, trecLoaded };
}

const SECRET_FIELDS = ["password", "confirmPassword"];
const REGISTRATION_FAILED_MESSAGE = "Registration failed: your profile could not be saved. Please try again.";

export async function action({ request, context }: ActionFunctionArgs) {
  const { services } = context;
  const draft = await readDraft(services, request);
  if (!draft) return redirect("/register");

  const { formData, refused } = await readPhotoForm(request);
  const trec = fillBrokerFromTrec(services, formData);
  const submission = parseSubmission(formData, profileCompletionSchema);
  // Bad input is answered with the messages and the input kept, never the passwords.
  const readRefusal = photoFormRefusal(refused);
  if (readRefusal) return rejectSubmission(submission, { ...readRefusal, hideFields: SECRET_FIELDS });
  if (submission.status !== "success")
    return rejectSubmission(submission, { fieldErrors: unfilledBrokerErrors(trec, formData), hideFields: SECRET_FIELDS });
  // Checked before the photo is stored, so a refused registration leaves no file behind.
  const existing = registeredAgent(services, draft.email);
  if (existing && !ownRegistration(services, draft))
    return rejectSubmission(submission, { formErrors: [emailTakenMessage(existing.status)], hideFields: SECRET_FIELDS, status: 409 });
  // Each sign-up takes a founder spot and sends mail: counted per address before anything is stored.
  const allowed = limitVisitorWrite(context, "registration");
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.registration, allowed.retryAfterSeconds, SECRET_FIELDS);

  const { photo, confirmPassword: _confirmed, ...profile } = submission.value;
  let photoUrl: string | undefined;
  if (photo) {
    const stored = await photoFromUpload(services.images, photo);
    if (stored.status === "refused")
      return rejectSubmission(submission, { fieldErrors: { photo: [stored.message] }, hideFields: SECRET_FIELDS });
    photoUrl = stored.status === "saved" ? stored.url : undefined;
  }

  let agent;
  try {
    agent = await createAgent(services, draft, { ...profile, photoUrl, brokerFrom: brokerSource(trec, profile.brokerLicenseNumber) });
  } catch (error) {
    if (error instanceof EmailTakenError)
      return rejectSubmission(submission, { formErrors: [EMAIL_TAKEN_MESSAGE], hideFields: SECRET_FIELDS, status: 409 });
    console.error("Registration not saved:", error);
    return rejectSubmission(submission, { formErrors: [REGISTRATION_FAILED_MESSAGE], hideFields: SECRET_FIELDS, status: 503 });
  }
  sendRegistrationMails(services, agent, publicUrl(services.config, "/member-login", request));
  return redirect("/welcome", { headers: { "Set-Cookie": await clearDraft(services, request) } });
}

const accessNames: Record<MembershipType, string> = { founder: "founder access", vip: "VIP access", member: "membership" };

const stateOptions = MARKET_STATES.map((code) => ({ value: code, label: `${MARKET_STATE_NAMES[code]} (${code})` }));

export default function CompleteProfile() {
  const { fullName, email, state, membershipType, trecLoaded } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof profileCompletionSchema>(lastResult, {
    id: "complete-profile",
    defaultValue: { licenseState: state },
  });
  const emailTaken = emailTakenHelp(form.errors);

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <div className="rounded-2xl border border-green-200 bg-green-50 p-6 text-green-900 shadow-sm" data-testid="registration-banner">
        <div className="flex flex-wrap items-center gap-3">
          <CheckCircleIcon className="h-8 w-8 text-green-600" />
          <p className="text-xl font-bold">Registration Successful</p>
          <span className="inline-flex items-center gap-1.5 rounded-full bg-green-700 px-3 py-1 text-xs font-bold tracking-wide text-white uppercase">
            <ShieldCheckIcon className="h-4 w-4" />
            Verified Member
          </span>
        </div>
        <p className="mt-3 text-green-800">
          Welcome, {fullName}. Your {accessNames[membershipType]} is FREE forever: no fees, no credit card, ever.
        </p>
      </div>

      <header className="mt-10">
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Complete Your Agent Profile</h1>
        <p className="mt-3 text-lg text-slate-600">
          We use your license details to verify you. Registering as <strong className="break-all text-slate-800">{email}</strong> (
          <Link to="/register" className="font-semibold text-brand-700 underline">
            change
          </Link>
          ).
        </p>
      </header>

      <ValidatedForm form={form} encType="multipart/form-data" className="mt-8 space-y-8">
        <EmailTakenHelp help={emailTaken} className="-mt-4 text-sm" />

        <section aria-labelledby="your-login" className="card space-y-5">
          <h2 id="your-login" className="text-lg font-bold">
            Your login
          </h2>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField field={fields.password} label="Password" type="password" autoComplete="new-password" hint="At least 8 characters." />
            <TextField field={fields.confirmPassword} label="Confirm Password" type="password" autoComplete="new-password" />
          </div>
        </section>

        <section aria-labelledby="your-license" className="card space-y-5">
          <h2 id="your-license" className="text-lg font-bold">
            Your license
          </h2>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField field={fields.licenseNumber} label="License Number" />
            <SelectField field={fields.licenseState} label="License State" placeholder="Select a state" options={stateOptions} />
          </div>
          <TextField field={fields.licenseExpiration} label="License Expiration" type="date" optional />
        </section>

        <section aria-labelledby="your-brokerage" className="card space-y-5">
          <h2 id="your-brokerage" className="text-lg font-bold">
            Your brokerage
          </h2>
          <p className="text-sm text-slate-600">{brokerFieldsHint(trecLoaded)}</p>
          <TextField field={fields.brokerage} label="Brokerage" autoComplete="organization" hint="Your sponsoring broker's name." />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField field={fields.brokerLicenseNumber} label="Broker License Number" />
            <TextField field={fields.brokerEmail} label="Broker Email" type="email" />
          </div>
        </section>

        <section aria-labelledby="your-profile" className="card space-y-6">
          <h2 id="your-profile" className="text-lg font-bold">
            Your profile
          </h2>
          <SpecialtyCheckboxes field={fields.specialties} />
          <BioField field={fields.bio} placeholder="Your markets, experience and the clients you serve." />
          {/* Last on purpose: see PhotoField. */}
          <PhotoField field={fields.photo} />
        </section>

        <SubmitButton busyLabel="Creating Your Profiles..." className="btn-primary w-full py-3 text-base">
          Create Agent Profile
        </SubmitButton>
      </ValidatedForm>
    </div>
  );
}
