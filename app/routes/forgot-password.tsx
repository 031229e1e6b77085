import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { AccountFrame, CheckYourEmail } from "~/components/account-frame";
import { SubmitButton, TextField, useValidatedForm, ValidatedForm, type FormResult } from "~/components/form";
import { mailedLinkSchema } from "~/domain/auth";
import { PRODUCT_NAME } from "~/domain/product";
import { sendPasswordReset } from "~/server/accounts/password-reset.server";
import { passRetryAfter, refuseTooMany, throttle } from "~/server/accounts/throttle.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";

export const meta: MetaFunction = () => [
  { title: `Forgot Password | ${PRODUCT_NAME}` },
  { name: "description", content: `Reset the password of your ${PRODUCT_NAME} account.` },
];

export const headers = passRetryAfter;

/**
 * The answer is the same whether or not an account uses the address, and comes before
 * any mail is sent (they are queued), so the form cannot be used to find out who is a
 * member; a mail that fails is logged for staff (docs/decisions/0036).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await parseForm(request, mailedLinkSchema);
  if (submission.status !== "success") return rejectSubmission(submission);

  const { email } = submission.value;
  const { limits } = context.services.auth;
  const allowed = throttle(context, limits.resetByIp, limits.resetByEmail, email);
  if (!allowed.allowed) return refuseTooMany(submission, "password reset requests", allowed.retryAfterSeconds);

  sendPasswordReset(context.services, email, request);
  return { sent: email };
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const sent = actionData && "sent" in actionData ? actionData.sent : null;
  return sent ? <RequestSent email={sent} /> : <RequestForm lastResult={actionData && !("sent" in actionData) ? actionData : null} />;
}

function RequestForm({ lastResult }: { lastResult: FormResult | null }) {
  const [form, fields] = useValidatedForm<typeof mailedLinkSchema>(lastResult);
  return (
    <AccountFrame
      title="Forgot Password?"
      intro="Enter the email address of your account and we'll send you a link to choose a new password."
    >
      <section className="card mt-8" aria-label="Password reset request">
        <ValidatedForm form={form} className="space-y-5">
          <TextField field={fields.email} label="Email Address" type="email" autoComplete="email" placeholder="you@brokerage.com" />
          <SubmitButton busyLabel="Sending..." className="btn-primary w-full py-3 text-base">
            Send Reset Link
          </SubmitButton>
        </ValidatedForm>
      </section>
      <p className="mt-8 text-center text-sm text-slate-600">
        Remembered it?{" "}
        <Link to="/member-login" className="font-semibold text-brand-700 hover:underline">
          Back to Member Login
        </Link>
      </p>
    </AccountFrame>
  );
}

function RequestSent({ email }: { email: string }) {
  return (
    <CheckYourEmail
      actions={
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Link to="/member-login" className="btn-primary py-3">
            Back to Member Login
          </Link>
          <Link to="/" className="btn-outline py-3">
            Back to Home
          </Link>
        </div>
      }
    >
      <p>
        We've received a password reset request for <strong className="break-all text-slate-900">{email}</strong>.
      </p>
      <p>
        If an account uses this address, an email with a link to choose a new password is on its way. The link works once, within 1 hour.
        Don't forget to check your spam folder.
      </p>
    </CheckYourEmail>
  );
}
