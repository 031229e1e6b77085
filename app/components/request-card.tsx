import { responsesLabel } from "~/domain/count-labels";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { RequestView } from "~/domain/request-views";
import { ClockIcon, MapPinIcon } from "./icons";
import { ExpiryNotice, RequestBadges, RequestTags } from "./request-badges";

/** What a request card shows (docs/product.md#referral-requests), shared by the list and the detail page. */
export function RequestFacts({ request }: { request: RequestView }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      <Fact label="Location">
        <span className="inline-flex items-center gap-1">
          <MapPinIcon className="h-4 w-4 shrink-0 text-slate-400" />
          {[request.location, request.state].filter(Boolean).join(", ")}
        </span>
      </Fact>
      <Fact label="Price Range">{request.priceRange}</Fact>
      {request.requestType === "referral" && request.clientLabel ? (
        <Fact label="Client Type">{request.clientLabel}</Fact>
      ) : (
        <Fact label="Specialty">{request.specialty}</Fact>
      )}
      {request.timelineLabel ? <Fact label="Timeline">{request.timelineLabel}</Fact> : null}
      {request.requestType === "listing" && request.listingAddress ? <Fact label="Property Address">{request.listingAddress}</Fact> : null}
      {request.requestType === "listing" && request.listingMLS ? <Fact label="MLS #">{request.listingMLS}</Fact> : null}
    </dl>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 gap-1.5">
      <dt className="shrink-0 font-semibold text-slate-500">{label}:</dt>
      <dd className="min-w-0 wrap-anywhere text-slate-800">{children}</dd>
    </div>
  );
}

/** One request on the requests page; `actions` are the owner's or the other members' buttons. */
export function RequestCard({ request, actions }: { request: RequestView; actions: ReactNode }) {
  const titleId = `request-${request.id}-title`;
  return (
    <article className="card flex flex-col gap-4" aria-labelledby={titleId}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <RequestBadges request={request} />
        <div className="ml-auto flex flex-wrap items-center gap-2 text-xs text-slate-500">
          <ExpiryNotice notice={request.expiryNotice} />
          <span className="inline-flex items-center gap-1">
            <ClockIcon className="h-4 w-4" />
            {request.postedAgo}
          </span>
        </div>
      </div>
      <h3 id={titleId} className="text-lg font-bold wrap-anywhere text-slate-900">
        <Link to={`/referral-requests/${request.id}`} className="hover:text-brand-700 hover:underline">
          {request.title}
        </Link>
      </h3>
      <RequestTags tags={request.tags} />
      <RequestFacts request={request} />
      <p className="line-clamp-4 leading-relaxed wrap-anywhere whitespace-pre-line text-slate-700">{request.description}</p>
      <div className="mt-auto flex flex-col gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          Posted by <span className="font-semibold text-slate-800">{request.isOwn ? "You" : request.agentName}</span>
          <span aria-hidden="true"> · </span>
          {responsesLabel(request.responses)}
        </p>
        <div className="flex flex-wrap gap-2">{actions}</div>
      </div>
    </article>
  );
}
