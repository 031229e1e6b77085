import { referralsLabel } from "~/domain/count-labels";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CsvDownload } from "~/components/csv-download";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FilterForm, FilterSelect, ResultsStatus } from "~/components/filter-form";
import { PageHeading } from "~/components/page-heading";
import { Pagination } from "~/components/pagination";
import { ReferralFigures, ReferralRows } from "~/components/referral-rows";
import { parsePageNumber } from "~/domain/directory-search";
import { PRODUCT_NAME } from "~/domain/product";
import {
  csvYears,
  parseReferralListQuery,
  REFERRAL_ROLES,
  REFERRAL_STATUS_OPTIONS,
  referralListSearch,
  type ReferralListQuery,
} from "~/domain/referrals/overview";
import { REFERRAL_STATUS_LABELS, REFERRAL_STATUSES, type ReferralStatus } from "~/domain/referrals/status";
import { requireMember } from "~/server/auth/session.server";
import { referralListPage } from "~/server/referrals/overview.server";

export const meta: MetaFunction = () => [
  { title: `My Referrals | ${PRODUCT_NAME}` },
  { name: "description", content: "The referrals you sent and received, where each deal stands and the fees." },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const now = new Date();
  const params = new URL(request.url).searchParams;
  const query = parseReferralListQuery(params);
  return {
    query,
    years: csvYears(now),
    ...referralListPage(context.services, member, query, parsePageNumber(params.get("page")), now),
  };
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function Referrals() {
  const { query, years, counts, totals, referrals, total, page, pageCount } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6 sm:py-12">
      <PageHeading title="My Referrals" intro="The referrals you sent and received, where each deal stands and the fees." />
      <section aria-labelledby="fees-title" className="card space-y-4">
        <h2 id="fees-title" className="text-lg font-bold text-slate-900">
          Fees
        </h2>
        <ReferralFigures totals={totals} />
        <CsvDownload action="/referrals.csv" years={years} />
      </section>
      <PipelineCounts query={query} counts={counts} />
      <Filters query={query} />
      <section aria-labelledby="referrals-title" className="card">
        <h2 id="referrals-title" className="sr-only">
          Referrals
        </h2>
        <ResultsStatus>{referralsLabel(total)}</ResultsStatus>
        {referrals.length === 0 ? (
          <EmptyState filtered={query.status !== undefined || query.role !== undefined} />
        ) : (
          <ReferralRows referrals={referrals} />
        )}
      </section>
      <Pagination page={page} pageCount={pageCount} label="Referral pages" />
    </div>
  );
}

/** The count of referrals in each status, each a link to the list filtered by it. */
function PipelineCounts({ query, counts }: { query: ReferralListQuery; counts: Record<ReferralStatus, number> }) {
  return (
    <nav aria-label="Referrals by status">
      <ul className="flex flex-wrap gap-2">
        {REFERRAL_STATUSES.map((status) => {
          const current = query.status === status;
          return (
            <li key={status}>
              <Link
                to={`/referrals${referralListSearch({ ...query, status: current ? undefined : status })}`}
                aria-current={current ? "page" : undefined}
                className={`inline-flex items-center gap-2 rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ${
                  current ? "bg-brand-700 text-white ring-brand-700" : "bg-white text-slate-700 ring-slate-200 hover:bg-slate-50"
                }`}
              >
                {REFERRAL_STATUS_LABELS[status]} <span className="tabular-nums">{counts[status]}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Filters({ query }: { query: ReferralListQuery }) {
  return (
    <FilterForm label="Filter referrals" action="/referrals" className="card flex flex-col gap-4 p-4 sm:flex-row sm:items-end sm:p-5">
      <div className="grid flex-1 grid-cols-1 gap-3 sm:grid-cols-2">
        <FilterSelect name="role" label="Sent or received" allLabel="Both" options={REFERRAL_ROLES} defaultValue={query.role} />
        <FilterSelect name="status" label="Status" allLabel="Any status" options={REFERRAL_STATUS_OPTIONS} defaultValue={query.status} />
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary">
          Apply Filters
        </button>
        <Link to="/referrals" className="btn-outline">
          Clear All
        </Link>
      </div>
    </FilterForm>
  );
}

function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <div className="py-10 text-center">
      <p className="text-lg font-bold text-slate-900">{filtered ? "No referrals match your filters" : "No referrals yet"}</p>
      <p className="mt-2 text-slate-600">
        {filtered
          ? "Try other filters or clear them."
          : "Propose a referral from a response to one of your requests, or from your own response."}
      </p>
      <Link to="/referral-requests" className="btn-primary mt-6">
        Browse Requests
      </Link>
    </div>
  );
}
