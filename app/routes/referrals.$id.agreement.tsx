import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PRODUCT_NAME } from "~/domain/product";
import { requireMember } from "~/server/auth/session.server";
import { referralPageView, requireReferral } from "~/server/referrals/referral-view.server";
import { referralHeading } from "~/server/referrals/agreement-pdf.server";

export const meta: MetaFunction = () => [{ title: `Referral agreement | ${PRODUCT_NAME}` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { referral } = requireReferral(context.services, member, params.id ?? "");
  const view = referralPageView(context.services, referral, member);
  return {
    id: view.id,
    heading: referralHeading(context.services, referral),
    text: view.text,
    hash: view.hash,
    acceptances: view.acceptances,
    brokers: view.brokers,
  };
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/**
 * The agreement alone, for reading and printing: its heading, the exact text, its hash,
 * both acceptances and both brokers' sign-offs. Printed, the site's header and footer and the links drop out and the
 * agreement is set as a document (tailwind.css, `@media print`).
 */
export default function PrintableAgreement() {
  const { id, heading, text, hash, acceptances, brokers } = useLoaderData<typeof loader>();
  return (
    <article className="agreement-document mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6" aria-labelledby="agreement-heading">
      <p className="text-sm print:hidden">
        <Link to={`/referrals/${id}`} className="font-semibold text-brand-700 hover:underline">
          ← Back to the referral
        </Link>{" "}
        ·{" "}
        <a href={`/referrals/${id}/agreement.pdf`} className="font-semibold text-brand-700 hover:underline">
          Download the PDF
        </a>
      </p>
      <header className="border-b border-slate-300 pb-4">
        <h1 id="agreement-heading" className="text-2xl font-extrabold tracking-tight text-slate-900">
          {heading.title}
        </h1>
        {heading.request ? <p className="mt-1 text-slate-600">{heading.request}</p> : null}
      </header>
      <pre className="font-sans text-base leading-relaxed wrap-anywhere whitespace-pre-wrap text-slate-900">{text}</pre>
      <section aria-labelledby="acceptances-heading" className="space-y-2 border-t border-slate-300 pt-4 text-sm">
        <h2 id="acceptances-heading" className="text-base font-bold text-slate-900">
          Electronic acceptances
        </h2>
        {acceptances.map((acceptance) => (
          <p key={acceptance.role}>
            <strong>{acceptance.role}</strong> ({acceptance.agentName}):{" "}
            {acceptance.signed ? `signed by ${acceptance.signedName} on ${acceptance.signedAt}` : "not signed yet"}
          </p>
        ))}
        {brokers.map((broker) => (
          <p key={broker.role}>
            <strong>{broker.role}</strong> ({broker.name}, license {broker.license}): {broker.state}
          </p>
        ))}
        <p className="break-all text-slate-600">SHA-256 of the text: {hash}</p>
      </section>
    </article>
  );
}
