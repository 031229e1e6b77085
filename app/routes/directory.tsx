import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PublicAgentCard, type PublicAgentCardData } from "~/components/agent-card";
import { AgentResults } from "~/components/agent-results";
import { FilterSelect, FilterTextInput } from "~/components/filter-form";
import { LiveFilterForm, SearchAndClear } from "~/components/live-filter-form";
import { PageBand } from "~/components/page-band";
import { agentProfilePath, loginFirstPath, messageAgentPath } from "~/domain/directory-cards";
import { MARKET_STATE_NAMES, MARKET_STATES, SPECIALTIES } from "~/domain/enums";
import { photoSource } from "~/domain/member-profile";
import { PRODUCT_NAME } from "~/domain/product";
import { SORT_OPTIONS } from "~/domain/track-record-text";
import type { Agent } from "~/domain/workbook/tabs";
import { getMember } from "~/server/auth/session.server";
import { parseDirectoryQuery, searchDirectory } from "~/server/directory/directory.server";
import { blockedBetween } from "~/server/moderation/visibility.server";
import { cardFigures, type TrackRecords } from "~/server/track-record/track-records.server";
import { NO_SCRIPTS_FOR_VISITORS } from "~/domain/page-scripts";

/**
 * A visitor gets the page without scripts, its filters a GET form applied by Search; a member's
 * list updates as they type (decision 0085).
 */
export const handle = NO_SCRIPTS_FOR_VISITORS;

export const meta: MetaFunction = () => [
  { title: `Agent Directory | ${PRODUCT_NAME}` },
  { name: "description", content: `Find verified real-estate agents in Texas and Oklahoma by name, city, state and specialty.` },
];

/**
 * A public page: cards carry no e-mail or phone, and link by the store's record id, since
 * the profile id is made from the e-mail. The profile and messages redirect to the
 * canonical id once a member is logged in. A member's own card, and the cards of members
 * blocked either way, have no Message button.
 */
function publicCard(agent: Agent, member: Agent | null, blocked: ReadonlySet<string>, records: TrackRecords): PublicAgentCardData {
  const messages = messageAgentPath(agent.id);
  return {
    key: agent.id,
    fullName: agent.fullName,
    city: agent.city,
    state: agent.state,
    brokerage: agent.brokerage,
    specialties: [...agent.specialties],
    membershipType: agent.membershipType,
    photoUrl: photoSource(agent.photoUrl),
    profileHref: agentProfilePath(agent.id),
    messageHref: member === null ? loginFirstPath(messages) : member.id === agent.id || blocked.has(agent.email) ? null : messages,
    trackRecord: cardFigures(records, agent.email),
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = parseDirectoryQuery(new URL(request.url).searchParams);
  const member = await getMember(request, context);
  const results = searchDirectory(context.services, query);
  const blocked = member ? blockedBetween(context.services, member.email) : new Set<string>();
  const records = context.services.trackRecords.current();
  return {
    query,
    agents: results.agents.map((agent) => publicCard(agent, member, blocked, records)),
    matches: results.matches,
    total: results.total,
    start: results.start,
    end: results.end,
    page: results.page,
    pageCount: results.pageCount,
  };
}

const stateOptions = MARKET_STATES.map((code) => ({ value: code, label: `${MARKET_STATE_NAMES[code]} (${code})` }));
const specialtyOptions = SPECIALTIES.map((specialty) => ({ value: specialty, label: specialty }));

export default function Directory() {
  const { query, agents, matches, total, start, end, page, pageCount } = useLoaderData<typeof loader>();
  return (
    <>
      <PageBand
        eyebrow="Agent Directory"
        title="Find a verified agent"
        intro="Search licensed agents across Texas and Oklahoma by name, city, brokerage or specialty."
      />
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
        <LiveFilterForm
          label="Search agents"
          action="/directory"
          className="card grid gap-4 p-4 sm:p-5 md:grid-cols-[repeat(auto-fit,minmax(12rem,1fr))] md:items-end"
        >
          {/* Two columns on wide screens, so the long placeholder shows whole. */}
          <FilterTextInput
            name="q"
            type="search"
            label="Search"
            defaultValue={query.q}
            placeholder="Name, city, brokerage or specialty"
            className="space-y-1.5 md:col-span-2"
          />
          <FilterSelect name="state" label="State" allLabel="All States" defaultValue={query.state ?? ""} options={stateOptions} />
          <FilterSelect
            name="specialty"
            label="Specialty"
            allLabel="All Specialties"
            defaultValue={query.specialty ?? ""}
            options={specialtyOptions}
          />
          <FilterSelect name="sort" label="Sort by" allLabel="Best match" defaultValue={query.sort ?? ""} options={SORT_OPTIONS} />
          <SearchAndClear clearHref="/directory" />
        </LiveFilterForm>

        <AgentResults
          noun="agent"
          matches={matches}
          total={total}
          start={start}
          end={end}
          page={page}
          pageCount={pageCount}
          cards={agents}
          renderCard={(agent) => <PublicAgentCard agent={agent} />}
          clearHref="/directory"
          pagesLabel="Directory pages"
        />
      </div>
    </>
  );
}
