import path from "node:path";
import { agentRecord } from "../support/records";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { serialiseRecord } from "../../app/domain/workbook/rows";
import { AGENTS_TAB, type Agent } from "../../app/domain/workbook/tabs";
import {
  filterMemberDirectory,
  findDirectoryAgent,
  parseDirectoryQuery,
  parseMemberDirectoryQuery,
  searchDirectory,
} from "../../app/server/directory/directory.server";
import type { Store } from "../../app/server/store/store.server";
import { testContext } from "../support/services";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

async function storeWith(agents: readonly Agent[]) {
  const context = testContext();
  const { store } = context.services;
  opened.push(store);
  await store.refresh();
  for (const agent of agents) await store.agents.insert(agent);
  return { services: context.services, store, file: path.join(context.services.config.dataDir, "store.sqlite") };
}

let counter = 0;
function agent(fullName: string, overrides: Partial<Agent> = {}): Agent {
  counter += 1;
  const email = `${fullName.toLowerCase().replace(/\W+/g, ".")}.${counter}@example.com`;
  return agentRecord({ id: `agent-${counter}`, fullName, email, ...overrides });
}

const names = (page: { agents: Agent[] }) => page.agents.map((a) => a.fullName);
const query = (search: string) => parseDirectoryQuery(new URLSearchParams(search));
const memberQuery = (search: string) => parseMemberDirectoryQuery(new URLSearchParams(search));

describe("public directory search", () => {
  it("lists approved agents only, by name", async () => {
    const { services } = await storeWith([
      agent("Zoe Adams"),
      agent("Ann Baker"),
      agent("Pending Person", { status: "pending" }),
      agent("Rejected Person", { status: "rejected" }),
    ]);
    const page = searchDirectory(services, query(""));
    expect(names(page)).toEqual(["Ann Baker", "Zoe Adams"]);
    expect(page).toMatchObject({ matches: 2, total: 2, page: 1, pageCount: 1 });
  });

  it("filters by state and specialty, alone and together", async () => {
    const { services } = await storeWith([
      agent("Tess Texan", { state: "TX", specialties: ["Luxury", "Land"] }),
      agent("Otto Okie", { state: "OK", city: "Tulsa", specialties: ["Luxury"] }),
      agent("Rita Ranch", { state: "OK", city: "Enid", specialties: ["Farm and Ranch"] }),
    ]);
    expect(names(searchDirectory(services, query("state=OK")))).toEqual(["Otto Okie", "Rita Ranch"]);
    expect(names(searchDirectory(services, query("specialty=Luxury")))).toEqual(["Otto Okie", "Tess Texan"]);
    expect(names(searchDirectory(services, query("state=ok&specialty=luxury")))).toEqual(["Otto Okie"]);
    expect(names(searchDirectory(services, query("state=TX&specialty=Farm+and+Ranch")))).toEqual([]);
    expect(searchDirectory(services, query("state=TX&specialty=Farm+and+Ranch"))).toMatchObject({ matches: 0, total: 3 });
  });

  it("ignores a state or specialty it does not know", async () => {
    const { services } = await storeWith([agent("Tess Texan"), agent("Otto Okie", { state: "OK" })]);
    expect(query("state=CA&specialty=Yachts")).toMatchObject({ state: null, specialty: null });
    expect(searchDirectory(services, query("state=CA&specialty=Yachts")).matches).toBe(2);
  });

  it("searches names, cities, brokerages and specialties, ignoring accents and case, names first", async () => {
    const { services } = await storeWith([
      agent("Carla Mendez", { city: "Austin", brokerage: "Hill Country Homes" }),
      agent("Austin Reed", { city: "Tulsa", brokerage: "Prairie Realty" }),
      agent("Bea Broker", { city: "Dallas", brokerage: "Austin Partners" }),
      agent("José Núñez", { city: "San Antonio", specialties: ["Barndominium"] }),
      agent("Nobody Else", { city: "Waco" }),
    ]);
    expect(names(searchDirectory(services, query("q=austin")))).toEqual(["Austin Reed", "Carla Mendez", "Bea Broker"]);
    expect(names(searchDirectory(services, query("q=AUST")))).toEqual(["Austin Reed", "Carla Mendez", "Bea Broker"]);
    expect(names(searchDirectory(services, query("q=jose+nunez")))).toEqual(["José Núñez"]);
    expect(names(searchDirectory(services, query("q=N%C3%9A%C3%91EZ")))).toEqual(["José Núñez"]);
    expect(names(searchDirectory(services, query("q=barndo")))).toEqual(["José Núñez"]);
    expect(names(searchDirectory(services, query("q=san+antonio+jose")))).toEqual(["José Núñez"]);
    expect(names(searchDirectory(services, query("q=austin+waco")))).toEqual([]);
    expect(names(searchDirectory(services, query("q=austin&state=OK")))).toEqual([]);
  });

  it("pages 24 agents at a time", async () => {
    const agents = Array.from({ length: 50 }, (_, i) => agent(`Agent ${String(i).padStart(2, "0")}`));
    const { services } = await storeWith(agents);
    const second = searchDirectory(services, query("page=2"));
    expect(second).toMatchObject({ page: 2, pageCount: 3, matches: 50, start: 24, end: 48 });
    expect(names(second)[0]).toBe("Agent 24");
    expect(names(searchDirectory(services, query("page=3")))).toEqual(["Agent 48", "Agent 49"]);
    expect(searchDirectory(services, query("page=7")).page).toBe(3);
  });
});

describe("member directory filters", () => {
  it("filters by state, city and specialty substrings, case-insensitively", async () => {
    const { services } = await storeWith([
      agent("Dale Dallas", { state: "TX", city: "Dallas", specialties: ["Commercial Income"] }),
      agent("Fran Fort", { state: "TX", city: "Fort Worth", specialties: ["Commercial"] }),
      agent("Olga Oklahoma", { state: "OK", city: "Oklahoma City", specialties: ["Residential Income", "Land"] }),
    ]);
    expect(names(filterMemberDirectory(services, memberQuery("")))).toEqual(["Dale Dallas", "Fran Fort", "Olga Oklahoma"]);
    expect(names(filterMemberDirectory(services, memberQuery("city=ALL")))).toEqual(["Dale Dallas"]);
    expect(names(filterMemberDirectory(services, memberQuery("city=o")))).toEqual(["Fran Fort", "Olga Oklahoma"]);
    expect(names(filterMemberDirectory(services, memberQuery("specialty=income")))).toEqual(["Dale Dallas", "Olga Oklahoma"]);
    expect(names(filterMemberDirectory(services, memberQuery("specialty=commercial&state=TX")))).toEqual(["Dale Dallas", "Fran Fort"]);
    expect(names(filterMemberDirectory(services, memberQuery("state=OK&city=city&specialty=lan")))).toEqual(["Olga Oklahoma"]);
    expect(names(filterMemberDirectory(services, memberQuery("state=OK&city=dallas")))).toEqual([]);
  });
});

describe("profile ids", () => {
  it("finds approved agents by every id form and never others", async () => {
    const jane = agent("Jane Doe", { email: "jane.doe@example.com", id: "rec-jane" });
    const { services } = await storeWith([jane, agent("Penny Pending", { email: "penny@example.com", status: "pending" })]);
    expect(findDirectoryAgent(services, "jane_doe_example_com")).toMatchObject({ isCanonical: true, canonicalId: "jane_doe_example_com" });
    expect(findDirectoryAgent(services, "jane-doe-at-example-com")).toMatchObject({
      isCanonical: false,
      canonicalId: "jane_doe_example_com",
    });
    expect(findDirectoryAgent(services, "Jane_Doe")).toMatchObject({ isCanonical: false, canonicalId: "jane_doe_example_com" });
    expect(findDirectoryAgent(services, "rec-jane")?.agent.fullName).toBe("Jane Doe");
    expect(findDirectoryAgent(services, "penny_example_com")).toBeNull();
    expect(findDirectoryAgent(services, "nobody_example_com")).toBeNull();
  });
});

describe("the directory index", () => {
  it("is rebuilt only when the agents tab changed: by a write here or a refresh that found changes", async () => {
    const { services, store, file } = await storeWith([agent("First Agent")]);
    const first = services.directory.current();
    expect(services.directory.current()).toBe(first);

    await store.refresh();
    expect(services.directory.current()).toBe(first);
    await store.contact.insert({
      id: "c-1",
      name: "n",
      email: "n@example.com",
      subject: "",
      category: "",
      message: "",
      agentLicense: "",
      state: "",
      createdAt: new Date().toISOString(),
    });
    expect(services.directory.current()).toBe(first);

    await store.agents.insert(agent("Second Agent"));
    const second = services.directory.current();
    expect(second).not.toBe(first);
    expect(names(searchDirectory(services, query("q=second")))).toEqual(["Second Agent"]);

    const db = new Database(file);
    const cells = serialiseRecord(AGENTS_TAB, agent("Third Agent"));
    db.prepare(
      `INSERT INTO "Agents" (${AGENTS_TAB.headers.map((h) => `"${h}"`).join(", ")}) VALUES (${AGENTS_TAB.headers.map(() => "?").join(", ")})`,
    ).run(...AGENTS_TAB.headers.map((h) => cells[h] ?? ""));
    db.prepare(`UPDATE "Agents" SET status = 'rejected' WHERE fullName = 'First Agent'`).run();
    db.close();
    await store.refresh();
    expect(services.directory.current()).not.toBe(second);
    expect(names(searchDirectory(services, query("")))).toEqual(["Second Agent", "Third Agent"]);
  });
});

describe("the index across agent writes", () => {
  it("swaps in an agent whose searched fields stayed the same, without rebuilding, and finds them as they now are", async () => {
    const sam = agent("Sam Sanders", { city: "San Antonio", bio: "Old bio" });
    const { services, store } = await storeWith([sam, agent("Dee Dallas", { city: "Dallas" })]);
    const before = services.directory.current();

    await store.agents.update(sam.id, { bio: "New bio", phone: "(214) 555-0199" });
    const after = services.directory.current();

    expect(after.postings).toBe(before.postings);
    expect(after.version).toBe(store.agents.version());
    expect(searchDirectory(services, query("q=san")).agents.map((a) => a.bio)).toEqual(["New bio"]);
    expect(findDirectoryAgent(services, sam.id)?.agent.bio).toBe("New bio");
    expect(filterMemberDirectory(services, memberQuery("city=antonio")).agents.map((a) => a.phone)).toEqual(["(214) 555-0199"]);
  });

  it("rebuilds when a searched field or an approval changed", async () => {
    const sam = agent("Sam Sanders", { city: "San Antonio" });
    const penny = agent("Penny Pending", { status: "pending" });
    const { services, store } = await storeWith([sam, penny]);
    const before = services.directory.current();

    await store.agents.update(sam.id, { city: "Tulsa" });
    expect(services.directory.current().postings).not.toBe(before.postings);
    expect(names(searchDirectory(services, query("q=tulsa")))).toEqual(["Sam Sanders"]);

    await store.agents.update(penny.id, { status: "approved" });
    expect(names(searchDirectory(services, query("q=penny")))).toEqual(["Penny Pending"]);
  });
});
