import { responsesLabel } from "~/domain/count-labels";
import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useHydrated } from "./use-hydrated";
import type { DashboardRequest } from "~/domain/request-views";
import { BookmarkIcon, HeartIcon } from "./dashboard-icons";
import { ChatIcon, CheckIcon, ClockIcon, MapPinIcon } from "./icons";
import { RequestBadges, RequestTags } from "./request-badges";

/**
 * A mark button (Interested or Save) as a real form. Without JavaScript the post
 * returns to this page; with it, the post runs in the background and the button
 * shows its new state at once.
 */
function MarkButton({ request, kind }: { request: DashboardRequest; kind: "interested" | "saved" }) {
  const fetcher = useFetcher<{ error?: string }>();
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  const stored = kind === "interested" ? request.interested : request.saved;
  const pending = fetcher.formData?.get("kind") === kind ? fetcher.formData.get("on") === "true" : null;
  const marked = pending ?? stored;
  const label = kind === "interested" ? "Interested" : marked ? "Saved" : "Save";
  return (
    <fetcher.Form method="post" action={`/referral-requests/${request.id}/mark`} preventScrollReset>
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="on" value={String(!marked)} />
      {hydrated ? null : <input type="hidden" name="redirectTo" value={pathname + search} />}
      <button
        type="submit"
        // Interested is a one-way signal: once given it stays, shown as done (docs/product.md#referral-requests).
        disabled={kind === "interested" && marked}
        aria-pressed={kind === "saved" ? marked : undefined}
        aria-label={`${label}: ${request.title}`}
        className={`btn w-full border px-3 whitespace-nowrap ${
          marked
            ? kind === "interested"
              ? "border-green-200 bg-green-50 text-green-800 disabled:opacity-100"
              : "border-amber-200 bg-amber-50 text-amber-900"
            : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"
        }`}
      >
        {kind === "interested" ? (
          marked ? (
            <CheckIcon className="h-4 w-4" />
          ) : (
            <HeartIcon className="h-4 w-4" />
          )
        ) : (
          <BookmarkIcon className="h-4 w-4" filled={marked} />
        )}
        {label}
      </button>
      {fetcher.state === "idle" && fetcher.data?.error ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {fetcher.data.error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

/** A live request on the dashboard: badges, tags, poster, place, age, responses and the four actions. */
export function DashboardRequestCard({ request }: { request: DashboardRequest }) {
  const titleId = `live-${request.id}-title`;
  return (
    <article className="flex h-full flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby={titleId}>
      <RequestBadges request={request} />
      <h3 id={titleId} className="font-bold wrap-anywhere text-slate-900">
        {request.title}
      </h3>
      <RequestTags tags={request.tags} />
      <p className="line-clamp-3 text-sm wrap-anywhere whitespace-pre-line text-slate-600">{request.description}</p>
      {/* One wrapping row whose first group takes the whole line: a dl allows only one div between it and its dt/dd. */}
      <dl className="mt-auto flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
        <div className="flex basis-full gap-1.5">
          <dt className="sr-only">Posted by</dt>
          <dd className="font-semibold text-slate-800">{request.agentName}</dd>
        </div>
        <div className="flex items-center gap-1">
          <dt>
            <MapPinIcon className="h-4 w-4" title="Location" />
          </dt>
          <dd>{[request.location, request.state].filter(Boolean).join(", ")}</dd>
        </div>
        <div className="flex items-center gap-1">
          <dt>
            <ClockIcon className="h-4 w-4" title="Posted" />
          </dt>
          <dd>{request.postedAgo}</dd>
        </div>
        <div className="flex items-center gap-1">
          <dt>
            <ChatIcon className="h-4 w-4" title="Responses" />
          </dt>
          <dd>{responsesLabel(request.responses)}</dd>
        </div>
      </dl>
      <div className="grid grid-cols-2 gap-2 border-t border-slate-100 pt-3">
        <MarkButton request={request} kind="interested" />
        <MarkButton request={request} kind="saved" />
        <Link
          to={`/messages?to=${encodeURIComponent(request.agentId)}`}
          className="btn-outline px-3 whitespace-nowrap"
          aria-label={`Message ${request.agentName}`}
        >
          <ChatIcon className="h-4 w-4" />
          Message
        </Link>
        <Link
          to={`/referral-requests/${request.id}`}
          className="btn-primary px-3 whitespace-nowrap"
          aria-label={`View Details: ${request.title}`}
        >
          View Details
        </Link>
      </div>
    </article>
  );
}
