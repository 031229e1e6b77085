import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { agentIdOf } from "../../app/domain/agent-id";
import { suggestionValue } from "../../app/domain/places/suggestion";
import type { Agent } from "../../app/domain/workbook/tabs";
import { loader as profileLoader } from "../../app/routes/agent.$agentId";
import { action as editProfileAction, loader as editProfileLoader } from "../../app/routes/edit-profile";
import { loader as memberDirectoryLoader } from "../../app/routes/member-directory";
import { loader as placesLoader } from "../../app/routes/places";
import { startMemberSession } from "../../app/server/auth/session.server";
import type { Store } from "../../app/server/store/store.server";
import { agentRecord } from "../support/records";
import { insertAgent, testContext } from "../support/services";

const PASSWORD = "correct horse battery";

type DataReply = {
  data: { initialValue: Record<string, unknown> | null; error?: Record<string, string[] | null> };
  init: ResponseInit | null;
};

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

async function contextWith(agents: readonly Agent[]): Promise<AppLoadContext> {
  const context = testContext();
  opened.push(context.services.store);
  await context.services.store.refresh();
  for (const agent of agents) await context.services.store.agents.insert(agent);
  return context;
}

async function sessionCookie(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

const get = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });

async function call<T>(run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** The edit profile form as the browser posts it without JavaScript: every place box, blanks included. */
function saveProfile(agent: Agent, places: string[], extra: Record<string, string>, cookie: string): Request {
  const body = new FormData();
  const fields = { fullName: agent.fullName, city: agent.city, state: agent.state, password: PASSWORD, serviceRadius: "25", ...extra };
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const place of places) body.append("placesServed", place);
  return new Request("http://localhost/edit-profile", { method: "POST", body, headers: { Cookie: cookie } });
}

// bcrypt is slow on purpose, even at the test cost (decision 0040).
describe("places served on edit profile, without JavaScript", { timeout: 30_000 }, () => {
  it("answers a place not on the list with Did you mean beside its box, the input kept, nothing saved", async () => {
    const context = await contextWith([]);
    const agent = await insertAgent(context, { password: PASSWORD });
    const cookie = await sessionCookie(context, agent);
    const posted = ["Tyler, TX", "", "Tyl", "Atlantis City"];
    const reply = (await call(() =>
      editProfileAction({ request: saveProfile(agent, posted, {}, cookie), context, params: {} }),
    )) as DataReply;
    expect(reply.init?.status).toBe(400);
    // Counted among the filled boxes: the form comes back without the blank one.
    expect(reply.data.error?.["placesServed[1]"]).toEqual(["Did you mean Tyler, TX?"]);
    expect(reply.data.error?.["placesServed[2]"]).toEqual([
      'We could not find "Atlantis City" in Texas or Oklahoma. Please check the spelling.',
    ]);
    expect(reply.data.error?.["placesServed[0]"]).toBeUndefined();
    expect((reply.data.initialValue?.placesServed as unknown[]).filter(Boolean)).toEqual(["Tyler, TX", "Tyl", "Atlantis City"]);
    expect(reply.data.initialValue?.password).toBeUndefined();
    expect(context.services.store.agents.get(agent.id)?.placesServed).toEqual([]);
  });

  it("saves the places in the list's spelling, a slip corrected and a repeat dropped, with the radius", async () => {
    const context = await contextWith([]);
    const agent = await insertAgent(context, { password: PASSWORD });
    const cookie = await sessionCookie(context, agent);
    const request = saveProfile(agent, ["tyler texas", "Longveiw", "", "Lindale, TX", "Tyler, TX"], { serviceRadius: "50" }, cookie);
    const result = await call(() => editProfileAction({ request, context, params: {} }));
    expect((result as Response).headers.get("Location")).toBe("/edit-profile");
    expect(context.services.store.agents.get(agent.id)).toMatchObject({
      placesServed: ["Tyler, TX", "Longview, TX", "Lindale, TX"],
      serviceRadius: 50,
    });

    const page = (await editProfileLoader({ request: get("/edit-profile", cookie), context, params: {} })).data;
    expect(page.profile).toMatchObject({ placesServed: ["Tyler, TX", "Longview, TX", "Lindale, TX"], serviceRadius: "50" });
    const agentId = agentIdOf(agent);
    const profile = await profileLoader({ request: get(`/agent/${agentId}`, cookie), context, params: { agentId } });
    expect(profile.profile.served).toBe("Serves Tyler, Longview and Lindale, TX · within 50 mi");
  });

  it("takes the suggested place with one click: the box gets it, every other input as sent", async () => {
    const context = await contextWith([]);
    const agent = await insertAgent(context, { password: PASSWORD });
    const cookie = await sessionCookie(context, agent);
    const useTyler = suggestionValue({ fieldName: "placesServed[1]", typed: "Tyl", place: "Tyler, TX" });
    const clicked = saveProfile(agent, ["Lindale, TX", "", "Tyl"], { city: "Lindale", useSuggestion: useTyler }, cookie);
    const result = await call(() => editProfileAction({ request: clicked, context, params: {} }));
    expect((result as Response).headers.get("Location")).toBe("/edit-profile");
    expect(context.services.store.agents.get(agent.id)).toMatchObject({ placesServed: ["Lindale, TX", "Tyler, TX"], city: "Lindale" });

    // Without the password the place is put in its box and the form asks for the password, nothing else.
    const noPassword = saveProfile(
      agent,
      ["Alpien"],
      { password: "", useSuggestion: suggestionValue({ fieldName: "placesServed[0]", typed: "Alpien", place: "Alpine, TX" }) },
      cookie,
    );
    const reply = (await call(() => editProfileAction({ request: noPassword, context, params: {} }))) as DataReply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.initialValue?.placesServed).toBe("Alpine, TX");
    expect(Object.keys(reply.data.error ?? {}).filter((name) => reply.data.error?.[name])).toEqual(["password"]);
  });

  it("refuses a radius not offered and more than ten places", async () => {
    const context = await contextWith([]);
    const agent = await insertAgent(context, { password: PASSWORD });
    const cookie = await sessionCookie(context, agent);
    const eleven = [
      "Tyler",
      "Longview",
      "Lindale",
      "Kilgore",
      "Marshall",
      "Henderson",
      "Jacksonville",
      "Athens",
      "Palestine",
      "Mineola",
      "Canton",
    ];
    const request = saveProfile(agent, eleven, { serviceRadius: "30" }, cookie);
    const reply = (await call(() => editProfileAction({ request, context, params: {} }))) as DataReply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.error?.serviceRadius).toEqual(["Please choose 10, 25, 50 or 100 miles"]);
    expect(reply.data.error?.placesServed).toEqual(["Please list up to 10 places"]);
    expect(context.services.store.agents.get(agent.id)?.serviceRadius).toBeUndefined();
  });

  it("opens with the default radius for an agent who chose none", async () => {
    const context = await contextWith([]);
    const agent = await insertAgent(context, { password: PASSWORD });
    const page = (await editProfileLoader({ request: get("/edit-profile", await sessionCookie(context, agent)), context, params: {} }))
      .data;
    expect(page.profile).toMatchObject({ placesServed: [], serviceRadius: "25" });
  });
});

const member = agentRecord({ id: "rec-member", fullName: "Mia Member", email: "mia@example.com", city: "Austin" });
const lindale = agentRecord({ id: "rec-lin", fullName: "Lena Lindale", city: "Tyler", placesServed: ["Lindale, TX", "Mineola, TX"] });
const longview = agentRecord({ id: "rec-long", fullName: "Lou Longview", city: "Longview", placesServed: [] });
const tulsa = agentRecord({ id: "rec-tul", fullName: "Tess Tulsa", state: "OK", city: "Tulsa", placesServed: ["Tulsa, OK"] });
const typo = agentRecord({ id: "rec-typo", fullName: "Ty Typo", city: "Nowhereville", placesServed: ["Tylerr, TX"] });

describe("the member directory near a place", () => {
  it("lists the agents serving within the miles chosen, nearest first, with the distance", async () => {
    const context = await contextWith([member, lindale, longview, tulsa, typo]);
    const cookie = await sessionCookie(context, member);
    const data = await memberDirectoryLoader({ request: get("/member-directory?near=Tyler%2C+TX&miles=50", cookie), context, params: {} });
    expect(data.nearMessage).toBeUndefined();
    expect(data.agents.map((agent) => agent.fullName)).toEqual(["Lena Lindale", "Lou Longview"]);
    expect(data.agents.map((agent) => agent.distance)).toEqual([expect.stringMatching(/^1\d mi from Tyler$/), "34 mi from Tyler"]);
    expect(data.query).toMatchObject({ near: "Tyler, TX", miles: 50 });

    const closer = await memberDirectoryLoader({ request: get("/member-directory?near=Tyler&miles=25", cookie), context, params: {} });
    expect(closer.agents.map((agent) => agent.fullName)).toEqual(["Lena Lindale"]);
    const inTown = await memberDirectoryLoader({ request: get("/member-directory?near=Lindale&miles=10", cookie), context, params: {} });
    expect(inTown.agents.map((agent) => agent.distance)).toEqual(["Serves Lindale"]);
  });

  it("follows an agent's new places at once", async () => {
    const context = await contextWith([member, lindale, tulsa]);
    const cookie = await sessionCookie(context, member);
    const near = () => memberDirectoryLoader({ request: get("/member-directory?near=Broken+Arrow&miles=25", cookie), context, params: {} });
    expect((await near()).agents.map((agent) => agent.fullName)).toEqual(["Tess Tulsa"]);
    await context.services.store.agents.update(lindale.id, { placesServed: ["Broken Arrow, OK"] });
    expect((await near()).agents.map((agent) => agent.fullName)).toEqual(["Lena Lindale", "Tess Tulsa"]);
  });

  it("says Did you mean for a place not on the list, and lists as if no place were given", async () => {
    const context = await contextWith([member, lindale, tulsa]);
    const cookie = await sessionCookie(context, member);
    const data = await memberDirectoryLoader({ request: get("/member-directory?near=Tyl&miles=25", cookie), context, params: {} });
    expect(data.nearMessage).toBe("Did you mean Tyler, TX?");
    expect(data.agents.map((agent) => agent.distance)).toEqual([undefined, undefined, undefined]);
    expect(data.matches).toBe(3);
  });

  it("searches again near the suggested place when its button is clicked, the other filters kept", async () => {
    const context = await contextWith([member, lindale, tulsa]);
    const cookie = await sessionCookie(context, member);
    const use = new URLSearchParams({
      near: "Tyl",
      miles: "50",
      useSuggestion: suggestionValue({ fieldName: "near", typed: "Tyl", place: "Tyler, TX" }),
    });
    const answer = await call(() => memberDirectoryLoader({ request: get(`/member-directory?${use}`, cookie), context, params: {} }));
    expect((answer as Response).status).toBe(302);
    expect((answer as Response).headers.get("Location")).toBe("/member-directory?miles=50&near=Tyler%2C+TX");
  });

  it("takes a shared link's unknown miles as the default", async () => {
    const context = await contextWith([member, lindale]);
    const cookie = await sessionCookie(context, member);
    const data = await memberDirectoryLoader({ request: get("/member-directory?near=Tyler&miles=7", cookie), context, params: {} });
    expect(data.query.miles).toBe(25);
  });
});

describe("/places suggestions", () => {
  it("answers members with the places starting with the text, largest first, in the state asked", async () => {
    const context = await contextWith([member]);
    const response = await placesLoader({
      request: get("/places?q=ty&state=TX", await sessionCookie(context, member)),
      context,
      params: {},
    });
    const body = (await response.json()) as { places: { name: string; state: string }[] };
    expect(body.places[0]).toEqual({ name: "Tyler", state: "TX" });
    expect(body.places.every((place) => place.state === "TX")).toBe(true);
  });

  it("sends visitors to log in", async () => {
    const context = await contextWith([]);
    const response = await call(() => placesLoader({ request: new Request("http://localhost/places?q=ty"), context, params: {} }));
    expect((response as Response).headers.get("Location")).toMatch(/^\/member-login\?/);
  });
});
