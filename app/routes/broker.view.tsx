import { data, redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CsvDownload } from "~/components/csv-download";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form";
import { PageHeading } from "~/components/page-heading";
import { ReferralFigures } from "~/components/referral-rows";
import { BROKER_LINK_INVALID } from "~/domain/brokers";
import { PRODUCT_NAME } from "~/domain/product";
import { csvYears } from "~/domain/referrals/overview";
import { brokerForRequest, brokerLinkCookie } from "~/server/brokers/broker-link.server";
import { brokerView } from "~/server/brokers/broker-view.server";

export const meta: MetaFunction = () => [{ title: `Broker's View | ${PRODUCT_NAME}` }];

/** The page answers for a live link: no cache may keep it. */
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  headers.set("Cache-Control", "private, no-store");
  return headers;
};

/**
 * The mailed link (`?token=...`) is answered with the token moved into a cookie and a
 * redirect to the bare address, as the password reset does. Without a working link the
 * page says so with 403 and shows nothing else.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = context;
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null)
    throw redirect("/broker/view", { headers: { "Set-Cookie": await brokerLinkCookie(services.config).serialize(token) } });
  const broker = await brokerForRequest(services, request);
  if (!broker) return data({ view: null, years: [] }, { status: 403 });
  const now = new Date();
  return { view: brokerView(services, broker, now), years: csvYears(now) };
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function BrokerViewPage() {
  const { view, years } = useLoaderData<typeof loader>();
  if (!view)
    return (
      <div className="mx-auto max-w-md space-y-6 px-4 py-10 sm:py-16">
        <PageHeading title="Broker's View" />
        <FormAlert errors={[BROKER_LINK_INVALID]} />
        <Link to="/broker" className="btn-primary w-full py-3 text-base">
          Ask for a New Link
        </Link>
      </div>
    );
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-10 sm:px-6 sm:py-12">
      <PageHeading
        title="Broker's View"
        intro={`The referrals of the agents sponsored by ${view.brokerName ? `${view.brokerName}, ` : ""}broker license ${view.licenseNumber}.`}
      />
      <section className="card space-y-4" aria-labelledby="fees-title">
        <h2 id="fees-title" className="text-lg font-bold text-slate-900">
          Fees
        </h2>
        <ReferralFigures totals={view.totals} />
        <CsvDownload action="/broker/fees.csv" years={years} />
      </section>
      <section className="card space-y-4" aria-labelledby="referrals-title">
        <h2 id="referrals-title" className="text-lg font-bold text-slate-900">
          Referrals ({view.referrals.length})
        </h2>
        {view.referrals.length === 0 ? (
          <p className="text-slate-600">None of the agents you sponsor has a referral agreement in {PRODUCT_NAME} yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Referrals">
            {view.referrals.map((referral) => (
              <BrokerReferral key={referral.id} referral={referral} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

type Row = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["view"]>["referrals"][number];

function Party({ label, side, yours }: { label: string; side: Row["referring"]; yours: boolean }) {
  return (
    <div>
      <dt className="font-semibold text-slate-500">
        {label}
        {yours ? <span className="ml-2 rounded bg-brand-50 px-1.5 text-xs text-brand-800">your agent</span> : null}
      </dt>
      <dd className="wrap-anywhere text-slate-900">
        {side.agent}, {side.brokerage} (license {side.license})
      </dd>
    </div>
  );
}

function BrokerReferral({ referral }: { referral: Row }) {
  return (
    <li className="space-y-3 py-4" data-testid="broker-referral">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-bold text-slate-900">
          {referral.reference}: {referral.clientName} ({referral.sideLabel.toLowerCase()})
        </h3>
        <span className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800">{referral.statusLabel}</span>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <Party label="Referring agent" side={referral.referring} yours={referral.yours.includes("referring")} />
        <Party label="Receiving agent" side={referral.receiving} yours={referral.yours.includes("receiving")} />
        <div>
          <dt className="font-semibold text-slate-500">Referral fee</dt>
          <dd className="text-slate-900">
            {referral.feeLabel}
            {referral.feeAmount ? `: ${referral.feeAmount}` : ""}
            {referral.feeAmount && referral.feeDoubted ? (
              <span className="mt-1 block rounded bg-amber-50 px-2 py-1 text-amber-900" data-testid="doubted-fee">
                This amount looks wrong; staff have been told.
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-500">Fee received</dt>
          <dd className="text-slate-900">{referral.receivedOn ?? "Not yet"}</dd>
        </div>
      </dl>
      <p className="flex flex-wrap gap-4 text-sm">
        <a href={`/broker/referrals/${referral.id}/agreement.pdf`} className="font-semibold text-brand-700 hover:underline">
          Agreement PDF
        </a>
        {referral.hasCda ? (
          <a href={`/broker/referrals/${referral.id}/cda.pdf`} className="font-semibold text-brand-700 hover:underline">
            CDA PDF
          </a>
        ) : null}
      </p>
    </li>
  );
}
