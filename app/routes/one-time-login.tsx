import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AccountFrame } from "~/components/account-frame";
import { FormAlert, SubmitButton } from "~/components/form";
import { LOGIN_LINK_INVALID_MESSAGE } from "~/domain/account-messages";
import { PRODUCT_NAME } from "~/domain/product";
import { agentOfLoginLink, spendLoginLink } from "~/server/accounts/login-link.server";
import { passRetryAfter, tooManyInit, tooManyMessage } from "~/server/accounts/throttle.server";
import { clientIp } from "~/server/auth/client-ip.server";
import { rememberDevice } from "~/server/auth/known-device.server";
import { loginLinkCookie } from "~/server/auth/login-link-token.server";
import { startMemberSession } from "~/server/auth/session.server";

export const meta: MetaFunction = () => [{ title: `One-Time Login | ${PRODUCT_NAME}` }];

/** The page answers for a live login link: no cache may keep it. */
export const headers: HeadersFunction = (args) => {
  const headers = passRetryAfter(args);
  headers.set("Cache-Control", "no-store");
  return headers;
};

async function linkToken(request: Request, context: LoaderFunctionArgs["context"]): Promise<unknown> {
  return loginLinkCookie(context.services.config).parse(request.headers.get("Cookie"));
}

/**
 * The mailed link (`?token=...`) is answered with the token moved into a cookie and a
 * redirect to the bare address, so the token is in no later URL, log line or Referer.
 * Opening the page spends nothing: the member logs in with a button, so a mail scanner
 * that follows links does not use up the one login the link allows.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) {
    throw redirect("/one-time-login", { headers: { "Set-Cookie": await loginLinkCookie(context.services.config).serialize(token) } });
  }
  const agent = agentOfLoginLink(context.services, await linkToken(request, context));
  return { email: agent?.email ?? null };
}

const UNAVAILABLE_MESSAGE = "We could not check your login link right now. Please try again in a moment.";

/**
 * Logs the member in once per link, and remembers this browser as theirs, so from now on
 * strangers' guesses at their account do not hold their password here (docs/decisions/0030, 0057).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const allowed = context.services.auth.limits.resetByIp.hit(clientIp(context));
  if (!allowed.allowed)
    return data({ error: tooManyMessage("login attempts", allowed.retryAfterSeconds) }, tooManyInit(allowed.retryAfterSeconds));

  let use: Awaited<ReturnType<typeof spendLoginLink>>;
  try {
    use = await spendLoginLink(context.services, await linkToken(request, context));
  } catch (error) {
    console.error("A login link could not be claimed:", error);
    return data({ error: UNAVAILABLE_MESSAGE }, { status: 503 });
  }
  if (!use.ok) return data({ error: use.message }, { status: 400 });

  const { config } = context.services;
  const session = await startMemberSession(request, context, use.agent, "/member-dashboard");
  session.headers.append("Set-Cookie", await rememberDevice(request, config, use.agent.email));
  session.headers.append("Set-Cookie", await loginLinkCookie(config).serialize("", { maxAge: 0 }));
  return session;
}

export default function OneTimeLogin() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const error = actionData?.error ?? (email ? null : LOGIN_LINK_INVALID_MESSAGE);

  return (
    <AccountFrame
      title="One-Time Login"
      intro={
        email ? (
          <>
            For <strong className="break-all text-slate-900">{email}</strong>
          </>
        ) : null
      }
    >
      <section className="card mt-8" aria-label="One-time login">
        {error ? <FormAlert errors={[error]} /> : null}
        {email ? (
          <Form method="post">
            <SubmitButton busyLabel="Logging in..." className="btn-primary w-full py-3 text-base">
              Log In
            </SubmitButton>
          </Form>
        ) : (
          <Link to="/login-link" className="btn-primary w-full py-3 text-base">
            Request a New Link
          </Link>
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
