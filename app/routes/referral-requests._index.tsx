import { requestsLabel } from "~/domain/count-labels";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pagination } from "~/components/pagination";
import { RequestCard } from "~/components/request-card";
import { FilterForm, FilterSelect, FilterTextInput } from "~/components/filter-form";
import { RequestFilterSelect } from "~/components/request-filter-select";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requestStatusHandlers } from "~/components/error-screens";
import { RequestNotice } from "~/components/request-notice";
import { useFlashNotice } from "~/components/use-flash-notice";
import { parsePageNumber } from "~/domain/directory-search";
import { PRODUCT_NAME } from "~/domain/product";
import { REQUEST_PAGE_NOTICES } from "~/domain/notices";
import {
  hasActiveFilters,
  parseRequestListQuery,
  REQUEST_SORTS,
  requestListSearch,
  type RequestListQuery,
  type RequestTab,
} from "~/domain/referral-requests/list-query";
import { requireMember } from "~/server/auth/session.server";
import { takeNotice } from "~/server/flash.server";
import { requestListPage } from "~/server/referral-requests/queries.server";
import type { RequestView } from "~/domain/request-views";

export const meta: MetaFunction = () => [
  { title: `Agent Requests | ${PRODUCT_NAME}` },
  { name: "description", content: "Open referral requests from agents in the network, and the ones you posted." },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const now = new Date();
  const params = new URL(request.url).searchParams;
  const query = parseRequestListQuery(params);
  const { notice, headers } = await takeNotice(context.services, request, REQUEST_PAGE_NOTICES);
  const page = requestListPage(context.services, member, query, parsePageNumber(params.get("page")), now);
  return data({ query, notice, ...page }, { headers });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={requestStatusHandlers} />;
}

export default function ReferralRequests() {
  const { query, notice: loadedNotice, counts, requests, total, page, pageCount } = useLoaderData<typeof loader>();
  const notice = useFlashNotice(loadedNotice);
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6 sm:py-12">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Agent Requests</h1>
          <p className="mt-2 text-lg text-slate-600">Referrals, listings that need buyers and buyer representation from verified agents.</p>
        </div>
        <Link to="/post-request" className="btn-accent shrink-0">
          Post Request
        </Link>
      </header>
      <RequestNotice text={notice} />
      <Tabs query={query} counts={counts} />
      <Filters query={query} />
      <Results query={query} requests={requests} total={total} />
      <Pagination page={page} pageCount={pageCount} label="Request pages" />
    </div>
  );
}

function Tabs({ query, counts }: { query: RequestListQuery; counts: Record<RequestTab, number> }) {
  const tabs: { tab: RequestTab; label: string }[] = [
    { tab: "all", label: "All Requests" },
    { tab: "mine", label: "My Requests" },
  ];
  return (
    <nav aria-label="Request lists" className="flex gap-2 border-b border-slate-200">
      {tabs.map(({ tab, label }) => {
        const current = query.tab === tab;
        return (
          <Link
            key={tab}
            to={`/referral-requests${requestListSearch({ ...query, tab })}`}
            aria-current={current ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2.5 text-sm font-semibold sm:px-4 ${
              current ? "border-brand-700 text-brand-800" : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {label} ({counts[tab]})
          </Link>
        );
      })}
    </nav>
  );
}

function Filters({ query }: { query: RequestListQuery }) {
  return (
    <FilterForm label="Filter requests" action="/referral-requests" className="card space-y-4 p-4 sm:p-5">
      {query.tab !== "all" ? <input type="hidden" name="tab" value={query.tab} /> : null}
      <FilterTextInput
        name="q"
        type="search"
        label="Search"
        defaultValue={query.q}
        placeholder="Search title, description or location"
        maxLength={200}
        className="min-w-0 space-y-1.5"
      />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6">
        <RequestFilterSelect name="type" defaultValue={query.type} />
        <RequestFilterSelect name="state" defaultValue={query.state} />
        <RequestFilterSelect name="specialty" defaultValue={query.specialty} />
        <RequestFilterSelect name="priceRange" defaultValue={query.priceRange} />
        <RequestFilterSelect name="clientType" defaultValue={query.clientType} />
        <FilterSelect name="sort" label="Sort By" options={REQUEST_SORTS} defaultValue={query.sort} />
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary">
          Apply Filters
        </button>
        <Link to={`/referral-requests${requestListSearch({ tab: query.tab })}`} className="btn-outline">
          Clear All
        </Link>
      </div>
    </FilterForm>
  );
}

function Results({ query, requests, total }: { query: RequestListQuery; requests: RequestView[]; total: number }) {
  if (requests.length === 0) return <EmptyState query={query} />;
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title" className="sr-only">
        Requests
      </h2>
      <p className="mb-4 text-sm text-slate-600" aria-live="polite">
        {requestsLabel(total)}
      </p>
      <ul className="grid gap-5 lg:grid-cols-2">
        {requests.map((request) => (
          <li key={request.id} className="flex">
            <RequestCard request={request} actions={<CardActions request={request} />} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function CardActions({ request }: { request: RequestView }) {
  const base = `/referral-requests/${request.id}`;
  if (request.isOwn) {
    return (
      <>
        <Link to={`${base}/edit`} className="btn-outline" aria-label={`Edit ${request.title}`}>
          Edit
        </Link>
        <Link to={`${base}/delete`} className="btn-outline text-red-700" aria-label={`Delete ${request.title}`}>
          Delete
        </Link>
      </>
    );
  }
  return (
    <>
      <Link to={base} className="btn-outline" aria-label={`View details of ${request.title}`}>
        View Details
      </Link>
      <Link to={`${base}/respond`} className="btn-primary" aria-label={`Respond to ${request.title}`}>
        Respond
      </Link>
    </>
  );
}

function EmptyState({ query }: { query: RequestListQuery }) {
  const filtered = hasActiveFilters(query);
  return (
    <section className="card py-12 text-center" aria-labelledby="empty-title">
      <h2 id="empty-title" className="text-xl font-bold text-slate-900">
        {filtered ? "No requests match your filters" : query.tab === "mine" ? "You have not posted any requests yet" : "No requests yet"}
      </h2>
      <p className="mt-2 text-slate-600">
        {filtered
          ? "Try other filters or clear them to see every request."
          : "Post a request and verified agents across Texas and Oklahoma will see it."}
      </p>
      <Link to="/post-request" className="btn-accent mt-6">
        Post First Request
      </Link>
    </section>
  );
}
