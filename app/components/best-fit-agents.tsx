import { Form, Link } from "@remix-run/react";
import { inviteAllLabel } from "~/domain/invitations";
import { locationLabel } from "~/domain/member-profile";
import type { BestFitSectionView, InvitedStanding } from "~/domain/invitation-views";
import { AgentAvatar } from "./agent-avatar";
import { UsersIcon } from "./icons";

type Suggestion = BestFitSectionView["suggestions"][number];
type Invited = BestFitSectionView["invited"][number];

const STANDING_LABELS: Record<InvitedStanding, string> = { invited: "Invited", declined: "Not a fit", responded: "Responded" };
const STANDING_STYLES: Record<InvitedStanding, string> = {
  invited: "bg-brand-50 text-brand-800 ring-brand-200",
  declined: "bg-amber-50 text-amber-900 ring-amber-200",
  responded: "bg-green-50 text-green-800 ring-green-200",
};

/**
 * The poster's "Best-fit agents" on their request page: the agents best placed to take it
 * with the reasons, an Invite button each and one for all of them, and the agents already
 * invited with where they stand. Plain forms: it works the same without JavaScript.
 */
export function BestFitAgents({ section, error }: { section: BestFitSectionView; error: string | null }) {
  const { invited, suggestions, nextRound, live } = section;
  if (!live && invited.length === 0) return null;
  return (
    <section id="best-fit" className="card space-y-5" aria-labelledby="best-fit-title">
      <h2 id="best-fit-title" className="flex items-center gap-2 text-lg font-bold text-slate-900">
        <UsersIcon className="h-5 w-5 text-brand-700" />
        Best-fit agents
      </h2>
      {error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}
      {invited.length > 0 ? <InvitedList invited={invited} /> : null}
      {nextRound ? (
        <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
          The Respond by time passed with no response, so here are the next agents best placed to take this request.
        </p>
      ) : null}
      {suggestions.length > 0 ? (
        <SuggestionList suggestions={suggestions} />
      ) : live && invited.length === 0 ? (
        <p className="text-slate-600">
          No agent serves this place yet. Find agents in the{" "}
          <Link to="/member-directory" className="font-semibold text-brand-700 hover:underline">
            member directory
          </Link>{" "}
          and message them, or check back as more agents list the places they serve.
        </p>
      ) : null}
    </section>
  );
}

function AgentLine({ agent }: { agent: Pick<Suggestion, "profileId" | "fullName" | "brokerage" | "city" | "state" | "photoUrl"> }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <AgentAvatar fullName={agent.fullName} photoUrl={agent.photoUrl} size="sm" decorative />
      <div className="min-w-0">
        <Link to={`/agent/${agent.profileId}`} className="font-semibold wrap-anywhere text-brand-700 hover:underline">
          {agent.fullName}
        </Link>
        <p className="text-sm wrap-anywhere text-slate-600">
          {[agent.brokerage.trim(), locationLabel(agent.city, agent.state)].filter(Boolean).join(" · ")}
        </p>
      </div>
    </div>
  );
}

function SuggestionList({ suggestions }: { suggestions: readonly Suggestion[] }) {
  return (
    <div className="space-y-4">
      <ul className="divide-y divide-slate-100" aria-label="Suggested agents">
        {suggestions.map((suggestion) => (
          <li key={suggestion.agentId} className="flex flex-col gap-3 py-4 first:pt-0 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 space-y-2">
              <AgentLine agent={suggestion} />
              <p className="text-sm wrap-anywhere text-slate-700">{suggestion.reasons.join(" · ")}</p>
            </div>
            <Form method="post" className="shrink-0">
              <input type="hidden" name="agent" value={suggestion.agentId} />
              <button type="submit" className="btn-outline w-full sm:w-auto">
                Invite<span className="sr-only"> {suggestion.fullName}</span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
      {suggestions.length > 1 ? (
        <Form method="post">
          {suggestions.map((suggestion) => (
            <input key={suggestion.agentId} type="hidden" name="agent" value={suggestion.agentId} />
          ))}
          <button type="submit" className="btn-primary w-full sm:w-auto">
            {inviteAllLabel(suggestions.length)}
          </button>
        </Form>
      ) : null}
    </div>
  );
}

function InvitedList({ invited }: { invited: readonly Invited[] }) {
  return (
    <ul className="divide-y divide-slate-100" aria-label="Invited agents">
      {invited.map((agent) => (
        <li key={agent.agentId} className="flex flex-col gap-2 py-4 first:pt-0 sm:flex-row sm:items-start sm:justify-between">
          <AgentLine agent={agent} />
          <div className="space-y-1 sm:max-w-xs sm:text-right">
            <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${STANDING_STYLES[agent.standing]}`}>
              {STANDING_LABELS[agent.standing]}
            </span>
            {agent.reason ? <p className="text-sm wrap-anywhere whitespace-pre-line text-slate-700">“{agent.reason}”</p> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
