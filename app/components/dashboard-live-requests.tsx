import { newRequestsLabel, viewAllLiveRequestsLabel } from "~/domain/count-labels";
import { Link, useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import {
  DASHBOARD_CHIPS,
  DASHBOARD_POLL_SECONDS,
  dashboardSearch,
  FOCUS_STALE_SECONDS,
  type DashboardQuery,
} from "~/domain/referral-requests/list-query";
import type { DashboardLive } from "~/domain/request-views";
import { DashboardRequestCard } from "./dashboard-request-card";
import { BellIcon } from "./icons";
import { FilterForm, FilterTextInput } from "./filter-form";
import { RequestFilterSelect } from "./request-filter-select";

type LiveCheck = { since: string; newCount: number };

/**
 * While the page is open, asks every 30 s (and when the window regains focus after
 * 10 s or more) how many matching requests arrived since the list was read. Nothing
 * runs without JavaScript: the page is then complete as loaded.
 */
function useNewRequestCount(asOf: string, query: DashboardQuery): number {
  const fetcher = useFetcher<LiveCheck>();
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const search = dashboardSearch(query);

  useEffect(() => {
    let lastCheck = Date.now();
    const params = new URLSearchParams(search);
    params.set("since", asOf);
    const check = () => {
      lastCheck = Date.now();
      load.current(`/member-dashboard/live?${params}`);
    };
    const timer = window.setInterval(check, DASHBOARD_POLL_SECONDS * 1000);
    const onFocus = () => {
      if (Date.now() - lastCheck >= FOCUS_STALE_SECONDS * 1000) check();
    };
    window.addEventListener("focus", onFocus);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("focus", onFocus);
    };
  }, [asOf, search]);

  // An answer about an older list (before filters changed or the list reloaded) does not count.
  return fetcher.data?.since === asOf ? fetcher.data.newCount : 0;
}

function NewRequestsBanner({ count }: { count: number }) {
  const revalidator = useRevalidator();
  return (
    <div role="status" aria-live="polite">
      {count > 0 ? (
        <div className="flex flex-col gap-3 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2 font-semibold text-brand-900">
            <BellIcon className="h-5 w-5" />
            {newRequestsLabel(count)}
          </p>
          <button type="button" className="btn-primary" onClick={() => revalidator.revalidate()} disabled={revalidator.state === "loading"}>
            View New Requests
          </button>
        </div>
      ) : null}
    </div>
  );
}

function Chips({ query, memberState }: { query: DashboardQuery; memberState: string }) {
  return (
    <nav aria-label="Quick filters" className="flex flex-wrap gap-2">
      {DASHBOARD_CHIPS.map((chip) => {
        const current = query.chip === chip.value;
        const label = chip.value === "market" && memberState ? `${chip.label} (${memberState})` : chip.label;
        return (
          <Link
            key={chip.value}
            to={`/member-dashboard${dashboardSearch({ ...query, chip: chip.value })}`}
            preventScrollReset
            aria-current={current ? "true" : undefined}
            className={`rounded-full px-3.5 py-1.5 text-sm font-semibold ring-1 ${
              current ? "bg-brand-700 text-white ring-brand-700" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-100"
            }`}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

/**
 * The filters fold into a "Filters" toggle on phones (a `details`, which needs no
 * JavaScript), so the requests come first on a small screen; from 768 px they are always
 * open (tailwind.css). They start open when a filter is in use.
 */
function Filters({ query }: { query: DashboardQuery }) {
  const inUse = [query.type, query.state, query.specialty, query.q].filter(Boolean).length;
  return (
    <details className="filters-panel group" open={inUse > 0}>
      <summary className="btn-outline w-full cursor-pointer justify-between md:hidden">
        <span>Filters{inUse > 0 ? ` (${inUse} in use)` : ""}</span>
        <span aria-hidden="true" className="transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <FilterForm
        label="Filter requests"
        action="/member-dashboard"
        className="mt-3 grid gap-3 rounded-lg bg-slate-50 p-4 sm:grid-cols-2 md:mt-0 lg:grid-cols-[1fr_1fr_1fr_1.5fr_auto]"
      >
        {query.chip !== "all" ? <input type="hidden" name="chip" value={query.chip} /> : null}
        <RequestFilterSelect name="type" defaultValue={query.type} />
        <RequestFilterSelect name="state" defaultValue={query.state} />
        <RequestFilterSelect name="specialty" defaultValue={query.specialty} />
        <FilterTextInput
          name="q"
          type="search"
          label="Search"
          defaultValue={query.q}
          placeholder="Title, description or location"
          maxLength={200}
          className="min-w-0 space-y-1.5"
        />
        <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
          <button type="submit" className="btn-primary flex-1 lg:flex-none">
            Apply
          </button>
          <Link
            to={`/member-dashboard${dashboardSearch({ chip: query.chip })}`}
            preventScrollReset
            className="btn-outline flex-1 lg:flex-none"
          >
            Clear Filters
          </Link>
        </div>
      </FilterForm>
    </details>
  );
}

/** The dashboard's Live Agent Requests: filters, quick chips, the new-requests banner and up to 8 cards. */
export function DashboardLiveRequests({ live }: { live: DashboardLive }) {
  const newCount = useNewRequestCount(live.asOf, live.query);
  return (
    <section id="live-requests" className="card space-y-5 p-4 sm:p-6" aria-labelledby="live-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="live-title" className="flex items-center gap-3 text-xl font-bold text-slate-900">
          Live Agent Requests
          <span className="inline-flex items-center gap-1.5 rounded-full bg-green-50 px-2.5 py-0.5 text-xs font-bold text-green-800 ring-1 ring-green-200">
            <span aria-hidden="true" className="h-2 w-2 animate-pulse rounded-full bg-green-600 motion-reduce:animate-none" />
            Live
          </span>
        </h2>
        <Link to="/post-request" className="btn-accent">
          Post Request
        </Link>
      </div>
      <Chips query={live.query} memberState={live.memberState} />
      <Filters query={live.query} />
      <NewRequestsBanner count={newCount} />
      {live.requests.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 px-4 py-10 text-center">
          <p className="font-semibold text-slate-900">No live requests match right now.</p>
          <p className="mt-1 text-sm text-slate-600">Try another filter, or post a request of your own.</p>
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {live.requests.map((request) => (
            <li key={request.id}>
              <DashboardRequestCard request={request} />
            </li>
          ))}
        </ul>
      )}
      {live.total > live.requests.length ? (
        <div className="text-center">
          <Link to={live.viewAllHref} className="btn-outline">
            {viewAllLiveRequestsLabel(live.total)}
          </Link>
        </div>
      ) : null}
    </section>
  );
}
