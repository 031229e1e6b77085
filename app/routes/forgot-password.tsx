import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { AccountFrame, MailedLinkForm, MemberLinkSent } from "~/components/account-frame";
import type { FormResult } from "~/components/form";
import { PRODUCT_NAME } from "~/domain/product";
import { sendPasswordReset } from "~/server/accounts/password-reset.server";
import { mailLinkToAddressTyped } from "~/server/accounts/mailed-link.server";
import { passRetryAfter } from "~/server/accounts/throttle.server";

export const meta: MetaFunction = () => [
  { title: `Forgot Password | ${PRODUCT_NAME}` },
  { name: "description", content: `Reset the password of your ${PRODUCT_NAME} account.` },
];

export const headers = passRetryAfter;

/** A reset link, mailed as any link to the address typed (mailLinkToAddressTyped); a mail that fails is logged for staff (docs/decisions/0036). */
export async function action({ request, context }: ActionFunctionArgs) {
  return mailLinkToAddressTyped(request, context, "password reset requests", sendPasswordReset);
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const sent = actionData && "sent" in actionData ? actionData.sent : null;
  return sent ? <RequestSent email={sent} /> : <RequestForm lastResult={actionData && !("sent" in actionData) ? actionData : null} />;
}

function RequestForm({ lastResult }: { lastResult: FormResult | null }) {
  return (
    <AccountFrame
      title="Forgot Password?"
      intro="Enter the email address of your account and we'll send you a link to choose a new password."
    >
      <MailedLinkForm lastResult={lastResult} label="Password reset request" button="Send Reset Link" />
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
    <MemberLinkSent request="password reset" email={email}>
      If an account uses this address, an email with a link to choose a new password is on its way. The link works once, within 1 hour.
      Don't forget to check your spam folder.
    </MemberLinkSent>
  );
}
