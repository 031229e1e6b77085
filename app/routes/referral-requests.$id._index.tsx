import { responsesLabel } from "~/domain/count-labels";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AddToCalendar } from "~/components/add-to-calendar";
import { BestFitAgents } from "~/components/best-fit-agents";
import { ChatIcon, ClockIcon } from "~/components/icons";
import { ExpiryNotice, RequestBadges, RequestTags } from "~/components/request-badges";
import { RequestFacts } from "~/components/request-card";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requestStatusHandlers } from "~/components/error-screens";
import { RequestNotice } from "~/components/request-notice";
import { useFlashNotice } from "~/components/use-flash-notice";
import { agentIdFromEmail } from "~/domain/agent-id";
import { reportPath } from "~/domain/moderation";
import { PRODUCT_NAME } from "~/domain/product";
import { isFinalStatus } from "~/domain/referrals/status";
import { isLive } from "~/domain/referral-requests/expiry";
import { REQUEST_PAGE_NOTICES } from "~/domain/notices";
import { relativeTime } from "~/domain/relative-time";
import type { RequestResponse } from "~/domain/workbook/tabs";
import { deadlineLabel, INVITATION_REFUSALS, isPastDeadline } from "~/domain/invitations";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";
import { bestFitSection } from "~/server/invitations/best-fit-section.server";
import { fewMembersFit, requestArea } from "~/server/outreach/refer-outside.server";
import { invitationsToAnswer, inviteAgents, respondByFor } from "~/server/invitations/invitations.server";
import { StoreError } from "~/server/store/store.server";
import { notFound } from "~/server/http.server";
import { findRequestFor, REQUEST_NOT_FOUND } from "~/server/referral-requests/queries.server";
import { referralsOnResponse } from "~/server/referrals/referrals.server";
import { responsesTo } from "~/server/referral-requests/respond.server";
import type { Services } from "~/server/services.server";
import { requestView } from "~/server/referral-requests/views.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.request.title ?? "Request"} | ${PRODUCT_NAME}` }];

function responseView(services: Pick<Services, "store">, response: RequestResponse, now: Date) {
  const referrals = referralsOnResponse(services, response);
  return {
    id: response.id,
    /** The latest referral proposed on this response, for the link beside it. */
    referralId: referrals.at(-1)?.id ?? null,
    /** A new referral can be proposed once every earlier one on this response has ended. */
    canPropose: referrals.every((referral) => isFinalStatus(referral.status)),
    fromName: response.fromName.trim() || "An agent",
    fromAgentId: agentIdFromEmail(response.fromEmail),
    message: response.message,
    sentAgo: relativeTime(response.createdAt, now),
  };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const found = findRequestFor(context.services, params.id ?? "", member);
  if (!found) throw notFound(REQUEST_NOT_FOUND);
  const now = new Date();
  const view = requestView(context.services, found, member.email, now);
  const { notice, headers } = await takeNotice(context.services, request, REQUEST_PAGE_NOTICES);
  const respondBy = respondByFor(context.services, found, member);
  const body = {
    request: view,
    live: isLive(found, now),
    notice,
    // Responses are the poster's alone to read; a responder sees their own, to propose a referral from.
    responses: responsesTo(context.services, found.id, member)
      .filter((response) => view.isOwn || response.fromEmail === member.email)
      .map((response) => responseView(context.services, response, now)),
    respondBy: respondBy ? { label: deadlineLabel(respondBy), passed: isPastDeadline(respondBy, now) } : null,
    /** An invited agent who has not answered yet gets "Not a fit" beside Respond. */
    invitedToAnswer: !view.isOwn && invitationsToAnswer(context.services, member, now).some((each) => each.requestId === found.id),
    // The best-fit list and its invitations are the poster's alone.
    bestFit: view.isOwn && found.status !== "deleted" ? bestFitSection(context.services, found, now) : null,
    /** Where fewer than five members fit, the poster may invite an agent who is not a member (docs/decisions/0083). */
    knowAnAgentIn: view.isOwn && isLive(found, now) && fewMembersFit(context.services, found, now) ? requestArea(found) : null,
  };
  return data(body, { headers });
}

/** Invites the agents named by `agent` (row ids): one from its Invite button, the round from "Invite all five". */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { services } = context;
  const found = findRequestFor(services, params.id ?? "", member);
  if (!found) throw notFound(REQUEST_NOT_FOUND);
  const { formData, refusal } = await readForm(request);
  if (refusal) return Response.json({ error: refusal.message }, { status: refusal.status });
  const agents = formData.getAll("agent").map((id) => services.store.agents.get(String(id)));
  // An id that names no agent is refused, not dropped: the page would say "sent" for nothing sent.
  if (agents.length === 0 || agents.some((agent) => agent === undefined))
    return Response.json({ error: INVITATION_REFUSALS.unknownAgent }, { status: 404 });
  const agentEmails = agents.flatMap((agent) => agent?.email ?? []);
  try {
    const result = await inviteAgents(services, { request: found, poster: member, agentEmails, now: new Date(), httpRequest: request });
    if (!result.ok) return Response.json({ error: result.message }, { status: result.status });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    console.error(`Invitations to request ${found.id} not stored:`, error);
    return Response.json({ error: INVITATION_REFUSALS.failed }, { status: 503 });
  }
  return redirectWithNotice(services, `/referral-requests/${found.id}#best-fit`, "invited");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={requestStatusHandlers} />;
}

export default function RequestDetails() {
  const {
    request,
    live,
    notice: loadedNotice,
    responses,
    respondBy,
    invitedToAnswer,
    bestFit,
    knowAnAgentIn,
  } = useLoaderData<typeof loader>();
  const notice = useFlashNotice(loadedNotice);
  const refused = useActionData<typeof action>();
  const base = `/referral-requests/${request.id}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6 sm:py-12">
      <p className="text-sm">
        <Link to="/referral-requests" className="font-semibold text-brand-700 hover:underline">
          ← Back to Requests
        </Link>
      </p>
      <RequestNotice text={notice} />
      <article className="card space-y-5" aria-labelledby="request-title">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <RequestBadges request={request} />
          <ExpiryNotice notice={request.expiryNotice} />
        </div>
        <h1 id="request-title" className="text-2xl font-extrabold tracking-tight wrap-anywhere text-slate-900 sm:text-3xl">
          {request.title}
        </h1>
        <StatusNote status={request.status} live={live} />
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
          <span>
            Posted by <span className="font-semibold text-slate-800">{request.isOwn ? "You" : request.agentName}</span>
          </span>
          <span aria-hidden="true">·</span>
          <span className="inline-flex items-center gap-1">
            <ClockIcon className="h-4 w-4" />
            {request.postedAgo}
          </span>
          <span aria-hidden="true">·</span>
          <span>{responsesLabel(request.responses)}</span>
        </p>
        <RequestTags tags={request.tags} />
        <RequestFacts request={request} />
        {respondBy ? (
          <p className="text-sm">
            <span className="font-semibold text-slate-500">Respond by:</span> {respondBy.label}
            {respondBy.passed ? " (passed)" : null}
            {invitedToAnswer && !respondBy.passed ? (
              <>
                {" "}
                <AddToCalendar href={`${base}/calendar.ics`} what="Respond by" />
              </>
            ) : null}
          </p>
        ) : null}
        {request.contactPreferenceLabel ? (
          <p className="text-sm">
            <span className="font-semibold text-slate-500">Preferred contact:</span> {request.contactPreferenceLabel}
          </p>
        ) : null}
        <div>
          <h2 className="text-sm font-semibold text-slate-500">Description</h2>
          <p className="mt-1 leading-relaxed wrap-anywhere whitespace-pre-line text-slate-800">{request.description}</p>
        </div>
        <div className="flex flex-wrap gap-3 border-t border-slate-100 pt-5">
          {request.isOwn ? (
            request.status !== "deleted" ? (
              <>
                {live ? (
                  <Link to={`${base}/edit`} className="btn-outline">
                    Edit
                  </Link>
                ) : null}
                <Link to={`${base}/delete`} className="btn-outline text-red-700">
                  Delete
                </Link>
              </>
            ) : null
          ) : (
            <>
              {live ? (
                <Link to={`${base}/respond`} className="btn-primary">
                  Respond
                </Link>
              ) : null}
              {invitedToAnswer ? (
                <Link to={`${base}/not-a-fit`} className="btn-outline">
                  Not a fit
                </Link>
              ) : null}
              <Link to={`/messages?to=${encodeURIComponent(request.agentId)}`} className="btn-outline">
                <ChatIcon className="h-4 w-4" />
                Message
              </Link>
              <Link to={reportPath("request", request.id)} className="btn-outline text-red-700">
                Report
              </Link>
            </>
          )}
        </div>
      </article>
      {bestFit ? <BestFitAgents section={bestFit} error={refused?.error ?? null} /> : null}
      {knowAnAgentIn ? (
        <section className="card" aria-labelledby="know-an-agent-title">
          <h2 id="know-an-agent-title" className="text-lg font-bold text-slate-900">
            Know an agent in {knowAnAgentIn}?
          </h2>
          <p className="mt-1 text-slate-600">
            Few members serve this area yet. Invite the agent you would call, and we will invite them to this request once they join.
          </p>
          <Link to={`${base}/refer`} className="btn-outline mt-4">
            Invite an agent who is not a member
          </Link>
        </section>
      ) : null}
      {request.isOwn ? (
        <Responses responses={responses} requestId={request.id} />
      ) : responses.length > 0 ? (
        <Responses responses={responses} requestId={request.id} own />
      ) : null}
    </div>
  );
}

function StatusNote({ status, live }: { status: string; live: boolean }) {
  if (live) return null;
  const text =
    status === "deleted"
      ? "You deleted this request. Other agents no longer see it."
      : "This request has expired and no longer accepts responses.";
  return <p className="rounded-lg bg-slate-100 px-4 py-3 text-sm font-medium text-slate-700">{text}</p>;
}

function Responses({
  responses,
  requestId,
  own = false,
}: {
  responses: ReturnType<typeof responseView>[];
  requestId: string;
  own?: boolean;
}) {
  return (
    <section className="card" aria-labelledby="responses-title">
      <h2 id="responses-title" className="text-lg font-bold text-slate-900">
        {own ? "Your response" : `Responses (${responses.length})`}
      </h2>
      {responses.length === 0 ? (
        <p className="mt-3 text-slate-600">No responses yet. Agents who respond appear here, and you get an e-mail for each.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100">
          {responses.map((response) => (
            <li key={response.id} className="py-4 first:pt-0 last:pb-0">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-semibold text-slate-900">{response.fromName}</p>
                <p className="text-sm text-slate-500">{response.sentAgo}</p>
              </div>
              <p className="mt-2 wrap-anywhere whitespace-pre-line text-slate-700">{response.message}</p>
              <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm font-semibold">
                {own ? null : (
                  <Link to={`/messages?to=${encodeURIComponent(response.fromAgentId)}`} className="text-brand-700 hover:underline">
                    Message {response.fromName}
                  </Link>
                )}
                {response.referralId ? (
                  <Link to={`/referrals/${response.referralId}`} className="text-brand-700 hover:underline">
                    View referral
                  </Link>
                ) : null}
                {response.canPropose ? (
                  <Link
                    to={`/referral-requests/${requestId}/propose?response=${encodeURIComponent(response.id)}`}
                    className="text-brand-700 hover:underline"
                  >
                    Propose referral
                  </Link>
                ) : null}
                {own ? null : (
                  <Link to={reportPath("response", response.id)} className="text-red-700 hover:underline">
                    Report response<span className="sr-only"> from {response.fromName}</span>
                  </Link>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
