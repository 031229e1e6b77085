import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MemberAgentCard, type MemberAgentCardData } from "~/components/agent-card";
import { AgentResults } from "~/components/agent-results";
import { FilterSelect, FilterTextInput } from "~/components/filter-form";
import { LiveFilterForm, SearchAndClear } from "~/components/live-filter-form";
import { PlaceSuggestionButton } from "~/components/place-suggestion-button";
import { PageBand } from "~/components/page-band";
import { usePlaceSuggestions } from "~/components/place-suggestions";
import { agentIdOf } from "~/domain/agent-id";
import { agentProfilePath, bioPreview, contactMailto } from "~/domain/directory-cards";
import { MARKET_STATES } from "~/domain/enums";
import { formatPhoneForDisplay } from "~/domain/phone";
import { distanceLabel } from "~/domain/places/served-text";
import { DEFAULT_SERVICE_RADIUS, SERVICE_RADII } from "~/domain/places/service-radius";
import { PRODUCT_NAME } from "~/domain/product";
import { memberDirectoryOwnOrder, SORT_OPTIONS } from "~/domain/track-record-text";
import type { Agent } from "~/domain/workbook/tabs";
import { requireMember } from "~/server/auth/session.server";
import { filterMemberDirectory, parseMemberDirectoryQuery, type NearPlace } from "~/server/directory/directory.server";
import { applyPlaceSuggestion } from "~/server/places/typed-places.server";
import { cardFigures, type TrackRecords } from "~/server/track-record/track-records.server";

export const meta: MetaFunction = () => [{ title: `Member Directory | ${PRODUCT_NAME}` }];

function memberCard(agent: Agent, member: Agent, records: TrackRecords, near: NearPlace | null): MemberAgentCardData {
  const miles = near?.found ? near.miles.get(agent.id) : undefined;
  return {
    key: agent.id,
    fullName: agent.fullName,
    membershipType: agent.membershipType,
    city: agent.city,
    state: agent.state,
    brokerage: agent.brokerage,
    phone: formatPhoneForDisplay(agent.phone),
    specialties: [...agent.specialties],
    bioPreview: bioPreview(agent.bio),
    profileHref: agentProfilePath(agentIdOf(agent)),
    contactHref: contactMailto(agent, member),
    trackRecord: cardFigures(records, agent.email),
    ...(miles === undefined || !near?.found ? {} : { distance: distanceLabel(miles, near.place.name) }),
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const url = new URL(request.url);
  // "Use Alpine, TX" searches again with that place in the box, at the address a search for it has.
  if (applyPlaceSuggestion(url.searchParams)) throw redirect(`${url.pathname}${url.search}`);
  const query = parseMemberDirectoryQuery(url.searchParams);
  const results = filterMemberDirectory(context.services, query);
  const records = context.services.trackRecords.current();
  return {
    query,
    agents: results.agents.map((agent) => memberCard(agent, member, records, results.near)),
    nearMessage: results.near && !results.near.found ? results.near.message : undefined,
    ownOrder: memberDirectoryOwnOrder(results.near?.found === true),
    matches: results.matches,
    total: results.total,
    start: results.start,
    end: results.end,
    page: results.page,
    pageCount: results.pageCount,
  };
}

const stateOptions = MARKET_STATES.map((code) => ({ value: code, label: code }));
/** The default distance sends nothing, so shared links read `?near=Tyler`, not `?near=Tyler&miles=25`. */
const milesValue = (miles: number) => (miles === DEFAULT_SERVICE_RADIUS ? "" : String(miles));
const milesOptions = SERVICE_RADII.map((miles) => ({ value: milesValue(miles), label: `Within ${miles} mi` }));

export default function MemberDirectory() {
  const { query, agents, nearMessage, ownOrder, matches, total, start, end, page, pageCount } = useLoaderData<typeof loader>();
  const { suggest, datalist } = usePlaceSuggestions("filter-near-suggestions");
  return (
    <>
      <PageBand eyebrow="Members Only" title="Member Directory" intro="Contact details of every verified agent in the network." />
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
        <LiveFilterForm
          label="Filter agents"
          action="/member-directory"
          className="card grid gap-4 p-4 sm:p-5 md:grid-cols-[repeat(auto-fit,minmax(12rem,1fr))] md:items-end"
        >
          <FilterTextInput
            name="near"
            label="Near a place"
            defaultValue={query.near}
            placeholder="e.g. Tyler, TX"
            list="filter-near-suggestions"
            onInput={(event) => suggest(event.currentTarget.value)}
            message={nearMessage}
            suggestion={<PlaceSuggestionButton fieldName="near" typed={query.near} message={nearMessage} />}
          />
          {datalist}
          <FilterSelect name="miles" label="Distance" defaultValue={milesValue(query.miles)} options={milesOptions} />
          <FilterSelect name="state" label="State" allLabel="All" defaultValue={query.state ?? ""} options={stateOptions} />
          <FilterTextInput name="city" label="City" defaultValue={query.city} placeholder="Any city" />
          <FilterTextInput name="specialty" label="Specialty" defaultValue={query.specialty} placeholder="Any specialty" />
          <FilterSelect name="sort" label="Sort by" allLabel={ownOrder} defaultValue={query.sort ?? ""} options={SORT_OPTIONS} />
          <SearchAndClear clearHref="/member-directory" />
        </LiveFilterForm>

        <AgentResults
          noun="verified agent"
          matches={matches}
          total={total}
          start={start}
          end={end}
          page={page}
          pageCount={pageCount}
          cards={agents}
          renderCard={(agent) => <MemberAgentCard agent={agent} />}
          clearHref="/member-directory"
          pagesLabel="Member directory pages"
        />
      </div>
    </>
  );
}
