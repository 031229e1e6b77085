import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { BioField } from "~/components/bio-field";
import { SelectField, SubmitButton, TextField, useValidatedForm, ValidatedForm } from "~/components/form";
import { controlProps, FieldError, type AnyField } from "~/components/field-parts";
import { KeyIcon } from "~/components/icons";
import { PhotoField } from "~/components/photo-field";
import { PlacesServedFields } from "~/components/places-served-fields";
import { SpecialtyCheckboxes } from "~/components/specialty-checkboxes";
import { useFlashNotice } from "~/components/use-flash-notice";
import { useHydrated } from "~/components/use-hydrated";
import { US_STATE_CODES } from "~/domain/enums";
import { DEFAULT_SERVICE_RADIUS } from "~/domain/places/service-radius";
import { photoSource } from "~/domain/member-profile";
import { PRODUCT_NAME } from "~/domain/product";
import { editProfileSchema, type EditProfileInput } from "~/domain/profile";
import type { Agent } from "~/domain/workbook/tabs";
import { loginSucceeded, passRetryAfter, refuseTooMany, startLoginAttempt } from "~/server/accounts/throttle.server";
import { verifyPassword } from "~/server/auth/password.server";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { parseSubmission, rejectSubmission } from "~/server/forms.server";
import { photoFormRefusal, readPhotoForm } from "~/server/images/photo-form.server";
import { photoFromLink } from "~/server/images/photo-link.server";
import { photoFromUpload } from "~/server/images/save-photo.server";
import { applyPlaceSuggestion, checkTypedPlaces } from "~/server/places/typed-places.server";

export const meta: MetaFunction = () => [{ title: `Edit Profile | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

const WRONG_PASSWORD_MESSAGE = "Failed to save profile changes. Please check your password and try again.";
const SAVE_FAILED_MESSAGE = "Failed to update profile. Please try again.";
const SECRET_FIELDS = ["password"];
/** The broker fields may be saved blank, but the referral agreement names the broker: each field's hint says so. */
const BROKER_NEEDED_HINT = "Needed to propose or sign a referral.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  // The banner after a save, once (docs/decisions/0064).
  const saved = await takeNotice(context.services, request, ["profileSaved", "profileSavedPhotoFailed"]);
  const body = {
    profile: {
      fullName: member.fullName,
      email: member.email,
      phone: member.phone,
      city: member.city,
      state: member.state,
      brokerage: member.brokerage,
      brokerLicenseNumber: member.brokerLicenseNumber ?? "",
      brokerEmail: member.brokerEmail,
      specialties: [...member.specialties],
      placesServed: [...member.placesServed],
      serviceRadius: String(member.serviceRadius ?? DEFAULT_SERVICE_RADIUS),
      bio: member.bio,
      photoUrl: member.photoUrl,
    },
    /** Changes with every save, so the form starts again from the stored values. */
    version: member.updatedAt ?? member.createdAt,
    saved: saved.notice,
    savedTone: saved.kind === "profileSavedPhotoFailed" ? ("warning" as const) : ("success" as const),
  };
  return data(body, { headers: saved.headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { services } = context;

  const { formData, refused } = await readPhotoForm(request);
  // "Use Alpine, TX" sends the form with that place in its box.
  applyPlaceSuggestion(formData);
  const submission = parseSubmission(formData, editProfileSchema);
  // Bad input is answered with the messages and the input kept, never the password.
  const readRefusal = photoFormRefusal(refused);
  if (readRefusal) return rejectSubmission(submission, { ...readRefusal, hideFields: SECRET_FIELDS });
  // Each place box is matched against the place list; its message shows with the form's others.
  const places = checkTypedPlaces("placesServed", submission.payload.placesServed);
  const fieldErrors = places.fieldErrors;
  if (submission.status !== "success" || Object.keys(fieldErrors).length > 0) {
    return rejectSubmission(submission, { fieldErrors, hideFields: SECRET_FIELDS });
  }

  // Wrong guesses count with the login page's, so the dialog cannot be used to guess the password faster.
  const attempt = await startLoginAttempt(request, context, member.email);
  if (!attempt.allowed) {
    return refuseTooMany(submission, "password attempts", attempt.retryAfterSeconds, SECRET_FIELDS);
  }
  if (!(await verifyPassword(submission.value.password, member.passwordHash))) {
    return rejectSubmission(submission, { formErrors: [WRONG_PASSWORD_MESSAGE], hideFields: SECRET_FIELDS });
  }
  loginSucceeded(context, member.email, attempt);

  // A chosen file wins over the Photo URL field; each one's refusal shows beside its own field.
  const { photo } = submission.value;
  const stored = photo ? await photoFromUpload(services.images, photo) : await photoFromLink(services, submission.value.photoUrl ?? "");
  if (stored.status === "refused")
    return rejectSubmission(submission, { fieldErrors: { [photo ? "photo" : "photoUrl"]: [stored.message] }, hideFields: SECRET_FIELDS });
  const photoUrl = stored.status === "saved" ? stored.url : member.photoUrl;

  try {
    await services.store.agents.update(member.id, profilePatch(member, submission.value, places.places, photoUrl));
  } catch (error) {
    console.error(`Profile of agent ${member.id} not saved:`, error);
    return rejectSubmission(submission, { formErrors: [SAVE_FAILED_MESSAGE], hideFields: SECRET_FIELDS, status: 503 });
  }
  return redirectWithNotice(services, "/edit-profile", stored.status === "saved" ? "profileSaved" : "profileSavedPhotoFailed");
}

function profilePatch(member: Agent, input: EditProfileInput, placesServed: string[], photoUrl: string): Partial<Omit<Agent, "id">> {
  const broker = {
    brokerage: input.brokerage ?? "",
    brokerLicenseNumber: input.brokerLicenseNumber ?? "",
    brokerEmail: input.brokerEmail ?? "",
  };
  // A broker the member changes is theirs from now on: reloads of TREC's data no longer replace it.
  const brokerChanged =
    broker.brokerage !== member.brokerage ||
    broker.brokerLicenseNumber !== (member.brokerLicenseNumber ?? "") ||
    broker.brokerEmail !== member.brokerEmail;
  return {
    fullName: input.fullName,
    phone: input.phone ?? "",
    city: input.city,
    state: input.state,
    ...broker,
    ...(brokerChanged ? { brokerFrom: "member" as const } : {}),
    specialties: input.specialties,
    placesServed,
    serviceRadius: input.serviceRadius,
    bio: input.bio ?? "",
    photoUrl,
    updatedAt: new Date().toISOString(),
  };
}

const stateOptions = US_STATE_CODES.map((code) => ({ value: code, label: code }));

const bannerStyles = {
  success: "border-green-200 bg-green-50 text-green-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
} as const;

export default function EditProfile() {
  const { profile, version, savedTone, ...loaded } = useLoaderData<typeof loader>();
  const saved = useFlashNotice(loaded.saved);
  const lastResult = useActionData<typeof action>();
  // A banner from an earlier save gives way to this submission's outcome.
  const banner = lastResult ? null : saved;

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Edit Profile</h1>
          <p className="mt-2 text-slate-600">
            Signed in as <strong className="break-all text-slate-800">{profile.email}</strong>
          </p>
        </div>
        <Link to="/member-dashboard" className="btn-outline">
          Back to Dashboard
        </Link>
      </div>

      {banner ? (
        <p role="status" className={`mt-6 rounded-lg border px-4 py-3 font-medium ${bannerStyles[savedTone]}`}>
          {banner}
        </p>
      ) : null}

      <ProfileForm key={version} profile={profile} />
    </div>
  );
}

type Profile = Awaited<ReturnType<typeof loader>>["data"]["profile"];

function ProfileForm({ profile }: { profile: Profile }) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof editProfileSchema>(lastResult, {
    id: "edit-profile",
    defaultValue: {
      fullName: profile.fullName,
      phone: profile.phone,
      city: profile.city,
      state: profile.state,
      brokerage: profile.brokerage,
      brokerLicenseNumber: profile.brokerLicenseNumber,
      brokerEmail: profile.brokerEmail,
      specialties: profile.specialties,
      placesServed: profile.placesServed,
      serviceRadius: profile.serviceRadius,
      bio: profile.bio,
      photoUrl: profile.photoUrl,
    },
  });
  const hydrated = useHydrated();
  useEffect(() => {
    // The server's answer (a wrong password, a failed save) shows above the form: bring it into view.
    if (lastResult && form.errors?.length) document.getElementById(form.errorId)?.scrollIntoView({ block: "center" });
  }, [lastResult, form.errors, form.errorId]);

  return (
    <ValidatedForm form={form} encType="multipart/form-data" className="mt-8 space-y-8">
      <section aria-labelledby="about-title" className="card space-y-5">
        <h2 id="about-title" className="text-lg font-bold">
          About you
        </h2>
        <TextField field={fields.fullName} label="Full Name" autoComplete="name" />
        <TextField
          field={fields.phone}
          label="Phone"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          optional
          hint="For example (214) 555-0100"
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField field={fields.city} label="City" autoComplete="address-level2" />
          <SelectField field={fields.state} label="State" placeholder="Select a state" options={stateOptions} />
        </div>
        <TextField
          field={fields.brokerage}
          label="Brokerage"
          autoComplete="organization"
          optional
          hint={`Your sponsoring broker's name. ${BROKER_NEEDED_HINT}`}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            field={fields.brokerLicenseNumber}
            label="Broker License Number"
            optional
            hint="Needed to propose or sign a referral: fees are paid broker to broker."
          />
          <TextField field={fields.brokerEmail} label="Broker Email" type="email" optional hint={BROKER_NEEDED_HINT} />
        </div>
      </section>

      <section aria-labelledby="markets-title" className="card space-y-5">
        <h2 id="markets-title" className="text-lg font-bold">
          Markets served
        </h2>
        <PlacesServedFields places={fields.placesServed} radius={fields.serviceRadius} lastResult={lastResult} />
      </section>

      <section aria-labelledby="expertise-title" className="card space-y-6">
        <h2 id="expertise-title" className="text-lg font-bold">
          Expertise
        </h2>
        <SpecialtyCheckboxes field={fields.specialties} />
        <BioField field={fields.bio} />
      </section>

      <section aria-labelledby="photo-title" className="card space-y-5">
        <h2 id="photo-title" className="text-lg font-bold">
          Photo
        </h2>
        <TextField
          field={fields.photoUrl}
          label="Photo URL"
          type="url"
          optional
          hint="A link starting with https://: we fetch the image once and keep our own copy. Or upload a file below (an upload replaces the link). Leave both empty for no photo."
        />
        {/* Last on purpose: see PhotoField. */}
        <PhotoField field={fields.photo} label="Upload a New Photo" currentPhotoUrl={photoSource(profile.photoUrl) ?? undefined} />
      </section>

      {hydrated ? <PasswordDialog field={fields.password} /> : <PasswordSection field={fields.password} />}
    </ValidatedForm>
  );
}

type PasswordFieldProps = { field: AnyField };

/** Without JavaScript: the password is a field on the page, above the save button. */
function PasswordSection({ field }: PasswordFieldProps) {
  return (
    <section aria-labelledby="confirm-title" className="card space-y-4 border-brand-100 bg-brand-50/50">
      <h2 id="confirm-title" className="flex items-center gap-2 text-lg font-bold">
        <KeyIcon className="h-5 w-5 text-brand-700" />
        Confirm with your password
      </h2>
      <TextField
        field={field}
        label="Password"
        type="password"
        autoComplete="current-password"
        hint="Required to save changes to your profile."
      />
      <SubmitButton busyLabel="Saving...">Save Changes</SubmitButton>
    </section>
  );
}

/**
 * With JavaScript: Save opens a dialog asking for the password; its confirm
 * button stays disabled while the password is empty. The dialog sits inside the
 * form, so its password is posted with the other fields.
 */
function PasswordDialog({ field }: PasswordFieldProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [password, setPassword] = useState("");
  const busy = useNavigation().state === "submitting";
  const close = () => dialog.current?.close();

  return (
    <div className="flex justify-end">
      <button
        type="button"
        className="btn-primary w-full sm:w-auto"
        disabled={busy}
        aria-busy={busy}
        onClick={() => dialog.current?.showModal()}
      >
        {busy ? "Saving..." : "Save Changes"}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="confirm-dialog-title"
        onClose={() => setPassword("")}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-2xl p-6 shadow-2xl backdrop:bg-slate-900/50"
      >
        <h2 id="confirm-dialog-title" className="flex items-center gap-2 text-lg font-bold">
          <KeyIcon className="h-5 w-5 text-brand-700" />
          Confirm your password
        </h2>
        <p className="mt-2 text-sm text-slate-600">Enter your password to save the changes to your profile.</p>
        <div className="mt-4 space-y-1.5">
          <label htmlFor={field.id} className="block text-sm font-semibold text-slate-800">
            Password
          </label>
          <input
            type="password"
            {...controlProps(field)}
            required
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            className="input"
          />
          <FieldError field={field} />
        </div>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-outline" onClick={close}>
            Cancel
          </button>
          {/* Closing first lets the form's own checks move focus to a field on the page. */}
          <button type="submit" className="btn-primary" disabled={password === ""} onClick={close}>
            Confirm and Save
          </button>
        </div>
      </dialog>
    </div>
  );
}
