import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { AccountFrame } from "~/components/account-frame";
import { SubmitButton, TextField, useValidatedForm, ValidatedForm } from "~/components/form";
import { CheckCircleIcon, KeyIcon, MailIcon } from "~/components/icons";
import { LOGIN_MESSAGES, loginSchema } from "~/domain/auth";
import { PRODUCT_NAME } from "~/domain/product";
import { isSafeRedirectPath, loginReason, safeRedirectPath } from "~/domain/redirect";
import { checkLogin } from "~/server/accounts/login.server";
import { loginSucceeded, passRetryAfter, refuseHeldAccount, refuseTooMany, startLoginAttempt } from "~/server/accounts/throttle.server";
import { rememberDevice } from "~/server/auth/known-device.server";
import { endedSessionNotice, getMember, startMemberSession } from "~/server/auth/session.server";
import { takeNotice } from "~/server/flash.server";
import { foundersLeftNow } from "~/server/registration/vip.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";

export const meta: MetaFunction = () => [
  { title: `Member Login | ${PRODUCT_NAME}` },
  { name: "description", content: `Log in to the ${PRODUCT_NAME} member area.` },
];

export const headers = passRetryAfter;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const requested = url.searchParams.get("redirectTo");
  if (await getMember(request, context)) throw redirect(safeRedirectPath(requested));
  const { notice: passwordChanged, headers } = await takeNotice(context.services, request, ["passwordChanged"]);
  const body = {
    redirectTo: isSafeRedirectPath(requested) ? requested : null,
    /** Said once after /reset-password saved a new password (docs/decisions/0064). */
    passwordChanged,
    /** Why the member's session just ended (their account was suspended), said before anything else. */
    notice: await endedSessionNotice(request, context),
    founderOffer: foundersLeftNow(context.services) > 0,
  };
  return data(body, { headers });
}

const HIDE_PASSWORD = ["password"];

/**
 * Every refusal answers 400 with the product's message (429 when rate-limited), the
 * e-mail kept and the password cleared.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await parseForm(request, loginSchema);
  if (submission.status !== "success") return rejectSubmission(submission, { hideFields: HIDE_PASSWORD });

  // The schema refuses a blank e-mail or password, so both are set here.
  const { email = "", password = "", redirectTo } = submission.value;
  const attempt = await startLoginAttempt(request, context, email);
  if (!attempt.allowed) {
    return attempt.accountHeld
      ? refuseHeldAccount(submission, email, attempt.retryAfterSeconds, HIDE_PASSWORD)
      : refuseTooMany(submission, attempt.what, attempt.retryAfterSeconds, HIDE_PASSWORD);
  }

  let check: Awaited<ReturnType<typeof checkLogin>>;
  try {
    check = await checkLogin(context.services, email, password);
  } catch (error) {
    console.error("Login failed:", error);
    return rejectSubmission(submission, { status: 500, formErrors: [LOGIN_MESSAGES.failed], hideFields: HIDE_PASSWORD });
  }
  if (!check.ok) return rejectSubmission(submission, { formErrors: [check.message], hideFields: HIDE_PASSWORD });

  loginSucceeded(context, email, attempt);
  const session = await startMemberSession(request, context, check.agent, safeRedirectPath(redirectTo));
  // This browser is the owner's from now on: strangers' guesses do not hold it (docs/decisions/0030).
  session.headers.append("Set-Cookie", await rememberDevice(request, context.services.config, email));
  return session;
}

export default function MemberLogin() {
  const { redirectTo, passwordChanged, notice, founderOffer } = useLoaderData<typeof loader>();
  const reason = notice ?? loginReason(redirectTo);
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof loginSchema>(lastResult);
  const passwordId = fields.password.id;
  const loginLinkFor = lastResult && "loginLinkFor" in lastResult ? lastResult.loginLinkFor : null;

  // The server never sends the password back; with JavaScript the typed one would stay in the
  // field, so it is cleared too. Directly, not through conform: an update would re-validate the
  // form and replace the server's message with "Email and password are required".
  useEffect(() => {
    const input = lastResult ? document.getElementById(passwordId) : null;
    if (input instanceof HTMLInputElement) input.value = "";
  }, [lastResult, passwordId]);

  return (
    <AccountFrame title="Member Login" intro={`Welcome back! Log in to your ${PRODUCT_NAME} account.`}>
      <section className="card mt-8" aria-label="Login">
        {passwordChanged && !lastResult ? (
          <p role="status" className="mb-6 flex gap-2 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
            <CheckCircleIcon className="h-5 w-5 shrink-0" />
            {passwordChanged}
          </p>
        ) : null}
        {reason && !passwordChanged && !lastResult ? (
          <p
            role="status"
            className="mb-6 flex gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900"
          >
            <KeyIcon className="h-5 w-5 shrink-0" />
            {reason}
          </p>
        ) : null}
        <ValidatedForm form={form} className="space-y-5">
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <TextField field={fields.email} label="Email Address" type="email" autoComplete="email" placeholder="you@brokerage.com" />
          <TextField field={fields.password} label="Password" type="password" autoComplete="current-password" />
          <div className="flex justify-end">
            <Link to="/forgot-password" className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline">
              Forgot your password?
            </Link>
          </div>
          <SubmitButton busyLabel="Verifying..." className="btn-primary w-full py-3 text-base">
            Login
          </SubmitButton>
        </ValidatedForm>

        {loginLinkFor ? <LoginLinkOffer email={loginLinkFor} /> : null}

        <p className="mt-6 flex gap-3 rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-900">
          <MailIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
          <span>
            Log in with the email and password you chose when you registered. Check your welcome email for your account details and approval
            updates.
          </span>
        </p>
      </section>

      <section className="mt-8 text-center" aria-labelledby="join-title">
        <h2 id="join-title" className="text-sm font-semibold text-slate-600">
          Not a member yet?
        </h2>
        <Link to="/" className="btn-accent mt-3 w-full py-3 text-base">
          {founderOffer ? "Join FREE - Founder Access" : "Join FREE"}
        </Link>
      </section>

      <nav aria-label="Help" className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
        <span className="text-slate-500">Need help?</span>
        <Link to="/contact" className="font-semibold text-brand-700 hover:underline">
          Contact Support
        </Link>
        <Link to="/contact" className="font-semibold text-brand-700 hover:underline">
          Agent Help Center
        </Link>
      </nav>
    </AccountFrame>
  );
}

/** While strangers' guesses hold the account, its owner gets in by a link mailed to them (docs/decisions/0057). */
function LoginLinkOffer({ email }: { email: string }) {
  return (
    <Form method="post" action="/login-link" className="mt-5 border-t border-slate-200 pt-5">
      <input type="hidden" name="email" value={email} />
      <SubmitButton busyLabel="Sending..." className="btn-outline w-full py-3 text-base">
        Email Me a Login Link
      </SubmitButton>
    </Form>
  );
}
