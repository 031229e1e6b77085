import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SubmitButton, TextField, useValidatedForm, ValidatedForm } from "~/components/form";
import { centralTime } from "~/domain/central-time";
import { brokerApprovalSchema, sideBroker } from "~/domain/referrals/broker-signoff";
import { PRODUCT_NAME } from "~/domain/product";
import { publicUrl } from "~/server/accounts/urls.server";
import { clientIp } from "~/server/auth/client-ip.server";
import { parseForm, rejectSubmission } from "~/server/forms.server";
import { referralHeading } from "~/server/referrals/agreement-pdf.server";
import { agreementHash, agreementTextOf } from "~/server/referrals/agreement-text.server";
import {
  approveAsBroker,
  BROKER_APPROVAL_PATH,
  BROKER_LINK_REFUSALS,
  brokerLinkCookie,
  readBrokerLink,
} from "~/server/referrals/broker-signoff.server";

export const meta: MetaFunction = () => [{ title: `Approve a referral agreement | ${PRODUCT_NAME}` }];

/** The page answers for a live link: no cache may keep it. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

async function tokenOf(request: Request, context: LoaderFunctionArgs["context"]): Promise<unknown> {
  return brokerLinkCookie(context.services.config).parse(request.headers.get("Cookie"));
}

/**
 * A broker's mailed link (`?token=...`) is answered with the token moved into a cookie and
 * a redirect to the bare address, as the password reset does. The page then shows the
 * agreement and the approval form, or why the link does not work (nothing changes).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = context;
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null)
    throw redirect(BROKER_APPROVAL_PATH, { headers: { "Set-Cookie": await brokerLinkCookie(services.config).serialize(token) } });
  const link = readBrokerLink(services, await tokenOf(request, context), new Date());
  if (!link.ok)
    return data({ refusal: BROKER_LINK_REFUSALS[link.reason], agreement: null }, { status: link.reason === "used" ? 200 : 410 });
  const { referral, side, request: asked } = link;
  const broker = sideBroker(referral, side);
  return {
    refusal: null,
    agreement: {
      heading: referralHeading(services, referral),
      text: agreementTextOf(referral),
      hash: agreementHash(referral),
      brokerName: broker.name,
      role: side === "referring" ? "referring" : "receiving",
      agentName: side === "referring" ? referral.referringName : referral.receivingName,
      expires: centralTime(asked.expiresAt ?? ""),
    },
  };
}

/**
 * The broker approves by typing their name and license number: recorded with the time,
 * IP, user agent and the text's hash. A license that is not this side's broker's is
 * refused beside the field; a link no longer good is refused with its reason.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { services } = context;
  const submission = await parseForm(request, brokerApprovalSchema);
  if (submission.status !== "success") return rejectSubmission(submission);
  const result = await approveAsBroker(services, {
    token: await tokenOf(request, context),
    signedName: submission.value.signedName,
    signedLicense: submission.value.signedLicense,
    ip: clientIp(context),
    userAgent: request.headers.get("User-Agent") ?? "",
    now: new Date(),
    link: (id) => publicUrl(services.config, `/referrals/${id}`, request),
  });
  if (!result.ok)
    return result.field
      ? rejectSubmission(submission, { status: result.status, fieldErrors: { [result.field]: [result.message] } })
      : rejectSubmission(submission, { status: result.status, formErrors: [result.message] });
  return redirect(BROKER_APPROVAL_PATH);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function BrokerApproval() {
  const { refusal, agreement } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof brokerApprovalSchema>(lastResult);
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6 sm:py-12">
      <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">Approve a referral agreement</h1>
      {agreement === null ? (
        <p className="card text-slate-800" role="status" data-testid="broker-link-refusal">
          {refusal}
        </p>
      ) : (
        <>
          <p className="text-slate-700">
            {agreement.agentName}, the {agreement.role} agent, signed this agreement for <strong>{agreement.brokerName}</strong> and asks
            you to approve it. This link works until {agreement.expires}.
          </p>
          <article className="card space-y-3" aria-labelledby="agreement-heading">
            <h2 id="agreement-heading" className="text-lg font-bold text-slate-900">
              {agreement.heading.title}
            </h2>
            {agreement.heading.request ? <p className="text-sm text-slate-600">{agreement.heading.request}</p> : null}
            <pre className="overflow-x-auto rounded-lg bg-slate-50 p-4 font-sans text-sm leading-relaxed wrap-anywhere whitespace-pre-wrap text-slate-800">
              {agreement.text}
            </pre>
            <p className="text-xs break-all text-slate-500">SHA-256 of this text: {agreement.hash}</p>
          </article>
          <section className="card" aria-labelledby="approve-title">
            <h2 id="approve-title" className="text-lg font-bold text-slate-900">
              Approve for {agreement.brokerName}
            </h2>
            <ValidatedForm form={form} className="mt-4 space-y-4">
              <TextField field={fields.signedName} label="Your full name" autoComplete="name" />
              <TextField field={fields.signedLicense} label="Your broker license number" autoComplete="off" />
              <p className="text-sm text-slate-600">
                Typing your name and license number is your electronic approval of the text above; the time, your IP address and the
                text&apos;s SHA-256 are recorded.
              </p>
              <SubmitButton busyLabel="Approving...">Approve the agreement</SubmitButton>
            </ValidatedForm>
          </section>
        </>
      )}
    </div>
  );
}
