import type { RequestView } from "~/domain/request-views";
import { ExpiryNotice, RequestBadges, RequestTags } from "./request-badges";

/** The request a respond, edit or delete page acts on, in brief. */
export function RequestSummary({ request }: { request: RequestView }) {
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <RequestBadges request={request} />
        <ExpiryNotice notice={request.expiryNotice} />
      </div>
      <p className="text-lg font-bold wrap-anywhere text-slate-900">{request.title}</p>
      <RequestTags tags={request.tags} />
      <p className="text-sm text-slate-600">
        Posted by <span className="font-semibold text-slate-800">{request.isOwn ? "You" : request.agentName}</span> · {request.postedAgo}
      </p>
    </div>
  );
}
