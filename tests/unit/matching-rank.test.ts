import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MatchCandidate, MatchRequest } from "~/domain/matching/candidate";
import { candidatesReaching, createCandidatePool, HOME_REACH_MILES } from "~/domain/matching/candidate-pool";
import { ACTIVE_DAYS, rankCandidates, type RankOptions } from "~/domain/matching/rank";
import { milesBetween } from "~/domain/places/geo";
import { SPECIALTIES } from "~/domain/enums";
import { SERVICE_RADII } from "~/domain/places/service-radius";
import { AGENT_STATUSES } from "~/domain/workbook/tabs";
import { candidate, NOW, northOf, PLACES, request, signals, trackRecord, type AgentSignals } from "./matching-support";

const DAY_MS = 86_400_000;
const options = (overrides: Partial<RankOptions> = {}): RankOptions => ({
  limit: 5,
  blocked: new Set(),
  excluded: new Set(),
  now: NOW,
  ...overrides,
});

function ranked(
  candidates: MatchCandidate[],
  match: MatchRequest,
  bySignals: Record<string, AgentSignals> = {},
  overrides: Partial<RankOptions> = {},
) {
  return rankCandidates(createCandidatePool(candidates), signals(bySignals), match, options(overrides));
}
const emailsOf = (list: { candidate: MatchCandidate }[]) => list.map((each) => each.candidate.email);

// Random networks around East Texas and Oklahoma: places within about 300 miles of Tyler.
const pointArb = fc.record({ lat: fc.double({ min: 30, max: 36.5, noNaN: true }), lon: fc.double({ min: -99, max: -93.5, noNaN: true }) });
const placeArb = fc.record({ name: fc.constantFrom("Alpha", "Beta", "Gamma"), state: fc.constantFrom("TX", "OK"), point: pointArb });
const specialtyArb = fc.constantFrom(...SPECIALTIES.slice(0, 4));
const agentSignalsArb: fc.Arbitrary<AgentSignals> = fc.record({
  lastActiveAt: fc.integer({ min: NOW.getTime() - 200 * DAY_MS, max: NOW.getTime() }),
  experience: fc.record({ "$200k - $400k": fc.nat(8) }),
  declines: fc.dictionary(specialtyArb, fc.nat(3)),
  record: fc
    .record({ closed: fc.nat(6), replyHours: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: undefined }) })
    .map((figures) => trackRecord("someone@example.com", figures)),
  rank: fc.record({ stars: fc.double({ min: 1, max: 5, noNaN: true }), closeRate: fc.double({ min: 0, max: 1, noNaN: true }) }),
});
const agentArb = (email: string) =>
  fc.record({
    candidate: fc.record({
      email: fc.constant(email),
      status: fc.constantFrom(...AGENT_STATUSES, "approved", "approved"),
      state: fc.constantFrom("TX", "OK"),
      city: fc.constant("Somewhere"),
      home: fc.option(placeArb, { nil: undefined }),
      places: fc.array(placeArb, { maxLength: 4 }),
      radiusMiles: fc.constantFrom(...SERVICE_RADII),
      specialties: fc.uniqueArray(specialtyArb, { maxLength: 4 }),
      agentRowActiveAt: fc.integer({ min: NOW.getTime() - 400 * DAY_MS, max: NOW.getTime() }),
    }),
    signals: agentSignalsArb,
  });
const networkArb = fc
  .integer({ min: 0, max: 40 })
  .chain((size) => fc.tuple(...Array.from({ length: size }, (_, i) => agentArb(`agent${i}@example.com`))))
  .map((agents) => ({
    candidates: agents.map((agent) => agent.candidate),
    bySignals: Object.fromEntries(agents.map((agent) => [agent.candidate.email, agent.signals])),
  }));
const requestArb = fc.record({
  place: fc.option(pointArb, { nil: undefined }),
  state: fc.constantFrom("TX", "OK"),
  specialty: fc.constantFrom("", ...SPECIALTIES.slice(0, 4)),
  priceRange: fc.constantFrom("$200k - $400k", "Over $5M"),
  posterEmail: fc.constantFrom("agent0@example.com", "agent1@example.com", "poster@example.com"),
});
const emailSetArb = fc.uniqueArray(fc.nat(39), { maxLength: 10 }).map((ids) => new Set(ids.map((i) => `agent${i}@example.com`)));

describe("the best-fit ranking's properties", () => {
  it("puts an agent 10 miles away with the specialty above one 200 miles away without it", () => {
    fc.assert(
      fc.property(
        networkArb,
        agentSignalsArb,
        agentSignalsArb,
        specialtyArb,
        fc.constantFrom(...SERVICE_RADII),
        (network, nearSignals, farSignals, specialty, farRadius) => {
          const center = PLACES.tyler.point;
          const near = candidate("near@example.com", {
            places: [{ name: "Near", state: "TX", point: northOf(center, 10) }],
            home: undefined,
            specialties: [specialty],
            radiusMiles: 25,
          });
          const far = candidate("far@example.com", {
            places: [{ name: "Far", state: "TX", point: northOf(center, 200) }],
            home: undefined,
            specialties: SPECIALTIES.filter((each) => each !== specialty),
            radiusMiles: farRadius,
          });
          const list = emailsOf(
            ranked(
              [...network.candidates, near, far],
              request({ place: center, specialty }),
              {
                ...network.bySignals,
                "near@example.com": { ...nearSignals, lastActiveAt: NOW.getTime() },
                "far@example.com": { ...farSignals, lastActiveAt: NOW.getTime() },
              },
              { limit: 50 },
            ),
          );
          expect(list).toContain("near@example.com");
          expect(list).not.toContain("far@example.com");
        },
      ),
    );
  });

  it("never lists the poster, a blocked, excluded, suspended, pending or rejected agent, nor more than the limit; the same network gives the same list in any order", () => {
    fc.assert(
      fc.property(
        networkArb,
        requestArb,
        emailSetArb,
        emailSetArb,
        fc.integer({ min: 0, max: 8 }),
        (network, match, blocked, excluded, limit) => {
          const list = ranked(network.candidates, match, network.bySignals, { blocked, excluded, limit });
          expect(list.length).toBeLessThanOrEqual(limit);
          for (const { candidate: agent } of list) {
            expect(agent.status).toBe("approved");
            expect(agent.email).not.toBe(match.posterEmail);
            expect(blocked.has(agent.email) || excluded.has(agent.email)).toBe(false);
          }
          const again = ranked([...network.candidates].reverse(), match, network.bySignals, { blocked, excluded, limit });
          expect(again).toEqual(list);
        },
      ),
    );
  });

  it("puts a member who answered Not a fit twice for the specialty below one who did not, all else equal", () => {
    fc.assert(
      fc.property(agentSignalsArb, specialtyArb, fc.constantFrom("a", "z"), (shared, specialty, first) => {
        const twin = (email: string) => candidate(email, { specialties: [specialty] });
        const declined = `${first}-declined@example.com`;
        const list = emailsOf(
          ranked([twin(declined), twin("other@example.com")], request({ specialty }), {
            [declined]: {
              ...shared,
              lastActiveAt: NOW.getTime(),
              declines: { ...shared.declines, [specialty]: (shared.declines?.[specialty] ?? 0) + 2 },
            },
            "other@example.com": {
              ...shared,
              lastActiveAt: NOW.getTime(),
              declines: { ...shared.declines, [specialty]: shared.declines?.[specialty] ?? 0 },
            },
          }),
        );
        expect(list).toEqual(["other@example.com", declined]);
      }),
    );
  });

  it("finds through the index exactly the agents a scan of every place finds, each at its nearest place", () => {
    fc.assert(
      fc.property(networkArb, pointArb, (network, center) => {
        const scanned = network.candidates
          .map((agent) => {
            const served = agent.places.map((place) => milesBetween(center, place.point)).filter((miles) => miles <= agent.radiusMiles);
            const home =
              agent.home && milesBetween(center, agent.home.point) <= HOME_REACH_MILES ? [milesBetween(center, agent.home.point)] : [];
            return { email: agent.email, miles: Math.min(...served, ...home) };
          })
          .filter((agent) => Number.isFinite(agent.miles))
          .sort((a, b) => a.email.localeCompare(b.email));
        const found = candidatesReaching(createCandidatePool(network.candidates), center, "TX")
          .map(({ candidate: agent, reach }) => ({ email: agent.email, miles: reach.miles }))
          .sort((a, b) => a.email.localeCompare(b.email));
        expect(found).toEqual(scanned);
      }),
    );
  });
});

describe("who the ranking suggests", () => {
  const lindale = PLACES.lindale.point;

  it("takes an agent whose place is within their radius, or whose own city is within 25 miles, and no one further", () => {
    const list = ranked(
      [
        candidate("serves@example.com", { home: PLACES.dallas, places: [PLACES.tyler], radiusMiles: 25 }),
        candidate("too-small-a-radius@example.com", { home: PLACES.dallas, places: [PLACES.tyler], radiusMiles: 10 }),
        candidate("based@example.com", { home: PLACES.tyler, places: [PLACES.austin], radiusMiles: 10 }),
        candidate("wide@example.com", { home: PLACES.longview, places: [PLACES.dallas], radiusMiles: 100 }),
        candidate("away@example.com", { home: PLACES.longview, places: [PLACES.longview], radiusMiles: 25 }),
      ],
      request({ place: lindale }),
    );
    expect(emailsOf(list).sort()).toEqual(["based@example.com", "serves@example.com", "wide@example.com"]);
  });

  it("matches by state when the request's place is unknown: the agent's state or a place they serve there", () => {
    const list = ranked(
      [
        candidate("texan@example.com", { state: "TX", places: [] }),
        candidate("serves-oklahoma@example.com", { state: "TX", places: [PLACES.tulsa] }),
        candidate("okie@example.com", { state: "OK", city: "Tulsa", home: PLACES.tulsa, places: [PLACES.okemah] }),
      ],
      request({ place: undefined, state: "OK" }),
    );
    expect(emailsOf(list).sort()).toEqual(["okie@example.com", "serves-oklahoma@example.com"]);
    expect(list.find((each) => each.candidate.email === "okie@example.com")!.reasons[0]).toBe("Based in Tulsa, OK");
  });

  it("requires the request's specialty when it names one, and activity in the last 90 days", () => {
    const lately = NOW.getTime() - (ACTIVE_DAYS - 1) * DAY_MS;
    const longAgo = NOW.getTime() - (ACTIVE_DAYS + 1) * DAY_MS;
    const list = ranked(
      [
        candidate("land@example.com", { specialties: ["Land"] }),
        candidate("homes@example.com", { specialties: ["Residential"] }),
        candidate("quiet@example.com", { specialties: ["Land"], agentRowActiveAt: longAgo }),
        candidate("wrote-lately@example.com", { specialties: ["Land"], agentRowActiveAt: longAgo }),
      ],
      request({ specialty: "Land" }),
      { "wrote-lately@example.com": { lastActiveAt: lately } },
    );
    expect(emailsOf(list).sort()).toEqual(["land@example.com", "wrote-lately@example.com"]);
  });

  it("ranks by distance, then a specialist over a generalist, experience in the price range, reply time and the track record", () => {
    const at = (email: string, miles: number, overrides: Partial<MatchCandidate> = {}) =>
      candidate(email, {
        home: undefined,
        places: [{ name: "X", state: "TX", point: northOf(lindale, miles) }],
        radiusMiles: 100,
        ...overrides,
      });
    expect(emailsOf(ranked([at("far@example.com", 40), at("near@example.com", 5)], request({ place: lindale })))).toEqual([
      "near@example.com",
      "far@example.com",
    ]);
    expect(
      emailsOf(
        ranked(
          [at("generalist@example.com", 5, { specialties: [...SPECIALTIES] }), at("specialist@example.com", 5, { specialties: ["Land"] })],
          request({ place: lindale, specialty: "Land" }),
        ),
      ),
    ).toEqual(["specialist@example.com", "generalist@example.com"]);
    expect(
      emailsOf(
        ranked([at("a-new@example.com", 5), at("b-seasoned@example.com", 5)], request({ place: lindale }), {
          "b-seasoned@example.com": { experience: { "$200k - $400k": 3 } },
        }),
      ),
    ).toEqual(["b-seasoned@example.com", "a-new@example.com"]);
    expect(
      emailsOf(
        ranked([at("a-other-range@example.com", 5), at("b-range@example.com", 5)], request({ place: lindale }), {
          "a-other-range@example.com": { experience: { "Over $5M": 5 } },
          "b-range@example.com": { experience: { "$200k - $400k": 1 } },
        }),
      ),
    ).toEqual(["b-range@example.com", "a-other-range@example.com"]);
    expect(
      emailsOf(
        ranked([at("a-slow@example.com", 5), at("b-quick@example.com", 5)], request({ place: lindale }), {
          "a-slow@example.com": { record: trackRecord("a-slow@example.com", { replyHours: 30 }) },
          "b-quick@example.com": { record: trackRecord("b-quick@example.com", { replyHours: 2 }) },
        }),
      ),
    ).toEqual(["b-quick@example.com", "a-slow@example.com"]);
    expect(
      emailsOf(
        ranked([at("a-poor@example.com", 5), at("b-good@example.com", 5)], request({ place: lindale }), {
          "a-poor@example.com": { rank: { stars: 3, closeRate: 0.3 } },
          "b-good@example.com": { rank: { stars: 4.6, closeRate: 0.7 } },
        }),
      ),
    ).toEqual(["b-good@example.com", "a-poor@example.com"]);
  });

  it("lowers an agent only for Not a fit answers in the request's specialty", () => {
    const twins = [
      candidate("a-declined-land@example.com", { specialties: ["Land", "Luxury"] }),
      candidate("b@example.com", { specialties: ["Land", "Luxury"] }),
    ];
    const declined = { "a-declined-land@example.com": { declines: { Land: 1 } } };
    expect(emailsOf(ranked(twins, request({ specialty: "Land" }), declined))).toEqual(["b@example.com", "a-declined-land@example.com"]);
    expect(emailsOf(ranked(twins, request({ specialty: "Luxury" }), declined))).toEqual(["a-declined-land@example.com", "b@example.com"]);
  });
});

describe("the reasons shown with each suggestion", () => {
  it("says where, the specialty, the experience, the reply time and the closings in plain words", () => {
    const [first] = ranked(
      [candidate("ann@example.com", { home: PLACES.dallas, places: [PLACES.tyler], radiusMiles: 25, specialties: ["Farm and Ranch"] })],
      request({ place: PLACES.lindale.point, specialty: "Farm and Ranch" }),
      { "ann@example.com": { experience: { "$200k - $400k": 2 }, record: trackRecord("ann@example.com", { closed: 3, replyHours: 2 }) } },
    );
    expect(first!.reasons).toEqual([
      "Serves Tyler, 13 mi",
      "Farm and Ranch",
      "2 past requests in the $200k - $400k range",
      "replies in about 2 hours",
      "3 referrals closed",
    ]);
  });

  it("names the agent's own city when that is what reaches the place, drops the miles at the place itself, and leaves out what is not known", () => {
    const reasonsOf = (agent: MatchCandidate, match: MatchRequest, bySignals: Record<string, AgentSignals> = {}) =>
      ranked([agent], match, bySignals)[0]!.reasons;
    expect(reasonsOf(candidate("b@example.com", { home: PLACES.tyler, places: [] }), request({ place: PLACES.lindale.point }))).toEqual([
      "Based in Tyler, 13 mi",
    ]);
    expect(reasonsOf(candidate("c@example.com", { places: [PLACES.lindale] }), request({ place: PLACES.lindale.point }))).toEqual([
      "Serves Lindale",
    ]);
    expect(
      reasonsOf(candidate("d@example.com", { places: [PLACES.tyler] }), request({ place: PLACES.tyler.point }), {
        "d@example.com": { experience: { "Over $5M": 1 }, record: trackRecord("d@example.com", { closed: 1 }) },
      }),
    ).toEqual(["Serves Tyler", "1 referral closed"]);
  });
});
