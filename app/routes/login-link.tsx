import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { AccountFrame, MailedLinkForm, MemberLinkSent } from "~/components/account-frame";
import type { FormResult } from "~/components/form";
import { PRODUCT_NAME } from "~/domain/product";
import { sendLoginLink } from "~/server/accounts/login-link.server";
import { mailLinkToAddressTyped } from "~/server/accounts/mailed-link.server";
import { passRetryAfter } from "~/server/accounts/throttle.server";
import { LOGIN_LINK_TTL_SECONDS } from "~/server/auth/login-link-token.server";

export const meta: MetaFunction = () => [
  { title: `Email Me a Login Link | ${PRODUCT_NAME}` },
  { name: "description", content: `Log in to your ${PRODUCT_NAME} account with a one-time link sent to your email.` },
];

export const headers = passRetryAfter;

/** A one-time login link, mailed as any link to the address typed (mailLinkToAddressTyped). */
export async function action({ request, context }: ActionFunctionArgs) {
  const answer = await mailLinkToAddressTyped(request, context, "login link requests", sendLoginLink);
  return "sent" in answer ? { ...answer, validMinutes: LOGIN_LINK_TTL_SECONDS / 60 } : answer;
}

export default function LoginLink() {
  const actionData = useActionData<typeof action>();
  return actionData && "sent" in actionData ? (
    <LinkSent email={actionData.sent} validMinutes={actionData.validMinutes} />
  ) : (
    <RequestForm lastResult={actionData ?? null} />
  );
}

function RequestForm({ lastResult }: { lastResult: FormResult | null }) {
  return (
    <AccountFrame
      title="Email Me a Login Link"
      intro="Enter the email address of your account and we'll send you a link that logs you in once."
    >
      <MailedLinkForm lastResult={lastResult} label="Login link request" button="Send Login Link" />
      <p className="mt-8 text-center text-sm text-slate-600">
        <Link to="/member-login" className="font-semibold text-brand-700 hover:underline">
          Back to Member Login
        </Link>
      </p>
    </AccountFrame>
  );
}

function LinkSent({ email, validMinutes }: { email: string; validMinutes: number }) {
  return (
    <MemberLinkSent request="login link" email={email}>
      If a member account uses this address, an email with a link that logs you in is on its way. The link works once, within {validMinutes}{" "}
      minutes. Don't forget to check your spam folder.
    </MemberLinkSent>
  );
}
