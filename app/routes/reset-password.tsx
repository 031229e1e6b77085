import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AccountFrame } from "~/components/account-frame";
import { FormAlert, SubmitButton, TextField, useValidatedForm, ValidatedForm } from "~/components/form";
import { RESET_LINK_INVALID_MESSAGE } from "~/domain/account-messages";
import { resetPasswordSchema } from "~/domain/auth";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent } from "~/domain/workbook/tabs";
import { setNewPassword } from "~/server/accounts/password-reset.server";
import { clientIp } from "~/server/auth/client-ip.server";
import { readResetToken, resetTokenCookie } from "~/server/auth/reset-token.server";
import { forgetLoginFailures, passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { redirectWithNotice } from "~/server/flash.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";

export const meta: MetaFunction = () => [{ title: `Choose a New Password | ${PRODUCT_NAME}` }];

/** The page answers for a live reset token: no cache may keep it. */
export const headers: HeadersFunction = (args) => {
  const headers = passRetryAfter(args);
  headers.set("Cache-Control", "no-store");
  return headers;
};

/** The agent whose reset link this browser opened, from the cookie the link's first request set. */
async function agentForLink(request: Request, context: LoaderFunctionArgs["context"]): Promise<Agent | null> {
  const { config, store } = context.services;
  const token: unknown = await resetTokenCookie(config).parse(request.headers.get("Cookie"));
  return readResetToken(config.sessionSecrets, token, (id) => store.agents.get(id));
}

/**
 * The mailed link (`?token=...`) is answered with the token moved into a cookie and a
 * redirect to the bare address, so the token is in no later URL, log line or Referer.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) {
    throw redirect("/reset-password", { headers: { "Set-Cookie": await resetTokenCookie(context.services.config).serialize(token) } });
  }
  const agent = await agentForLink(request, context);
  return { email: agent?.email ?? null };
}

const HIDE_PASSWORDS = ["password", "confirmPassword"];

/**
 * Saves the new password and sends the member to log in with it. The new hash ends
 * every session and reset link made with the old one.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await parseForm(request, resetPasswordSchema);
  const allowed = context.services.auth.limits.resetByIp.hit(clientIp(context));
  if (!allowed.allowed) return refuseTooMany(submission, "password reset attempts", allowed.retryAfterSeconds, HIDE_PASSWORDS);

  const agent = await agentForLink(request, context);
  if (!agent) return rejectSubmission(submission, { formErrors: [RESET_LINK_INVALID_MESSAGE], hideFields: HIDE_PASSWORDS });
  if (submission.status !== "success") return rejectSubmission(submission, { hideFields: HIDE_PASSWORDS });

  try {
    await setNewPassword(context.services, agent, submission.value.password);
  } catch (error) {
    console.error("New password not saved:", error);
    return rejectSubmission(submission, {
      status: 503,
      formErrors: ["We could not save your new password. Please try again in a moment."],
      hideFields: HIDE_PASSWORDS,
    });
  }
  forgetLoginFailures(context, agent.email);
  const loginPage = await redirectWithNotice(context.services, "/member-login", "passwordChanged");
  // The used token's cookie is cleared on the way.
  loginPage.headers.append("Set-Cookie", await resetTokenCookie(context.services.config).serialize("", { maxAge: 0 }));
  return loginPage;
}

export default function ResetPassword() {
  const { email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof resetPasswordSchema>(lastResult);

  return (
    <AccountFrame
      title="Choose a New Password"
      intro={
        email ? (
          <>
            For <strong className="break-all text-slate-900">{email}</strong>
          </>
        ) : null
      }
    >
      <section className="card mt-8" aria-label="New password">
        {email ? (
          <ValidatedForm form={form} className="space-y-5">
            <TextField
              field={fields.password}
              label="New Password"
              type="password"
              autoComplete="new-password"
              hint="At least 8 characters."
            />
            <TextField field={fields.confirmPassword} label="Confirm New Password" type="password" autoComplete="new-password" />
            <SubmitButton busyLabel="Saving..." className="btn-primary w-full py-3 text-base">
              Save New Password
            </SubmitButton>
          </ValidatedForm>
        ) : (
          <>
            <FormAlert errors={[RESET_LINK_INVALID_MESSAGE]} />
            <Link to="/forgot-password" className="btn-primary w-full py-3 text-base">
              Request a New Link
            </Link>
          </>
        )}
      </section>

      <p className="mt-8 text-center text-sm">
        <Link to="/member-login" className="font-semibold text-brand-700 hover:underline">
          Back to Member Login
        </Link>
      </p>
    </AccountFrame>
  );
}
