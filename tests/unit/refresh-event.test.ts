/** The refresh event: rows by what happened to them, merged over the refreshes a job has not been given yet. */
import { describe, expect, it } from "vitest";
import { changedRows, mergeChanges, refreshEvent, type Changes } from "../../app/server/store/refresh-event.server";
import { agentRecord } from "../support/records";

const dana = agentRecord({ id: "dana", status: "pending", city: "Austin" });
const eli = agentRecord({ id: "eli", status: "approved" });

/** What one refresh found in the Agents tab, going from `before` to `after`. */
function refreshOfAgents(before: readonly (typeof dana)[], after: readonly (typeof dana)[]): Changes {
  return new Map([["agents", changedRows(new Map(before.map((a) => [a.id, a])), new Map(after.map((a) => [a.id, a])))]]);
}

describe("the refresh event", () => {
  it("names rows added, changed and removed, with only the watched columns' old and new values", () => {
    const changes = refreshOfAgents([dana, eli], [{ ...dana, status: "approved", city: "Waco" }, agentRecord({ id: "fay" })]);
    const event = refreshEvent(changes, { agents: ["status"] });
    expect(event.agents).toEqual({
      added: ["fay"],
      changed: [{ id: "dana", before: { status: "pending" }, after: { status: "approved" } }],
      removed: ["eli"],
    });
    expect(event.requests).toEqual({ added: [], changed: [], removed: [] });
  });

  it("does not list a row read again unchanged, though it is a new object", () => {
    expect(refreshOfAgents([dana], [{ ...dana }]).get("agents")?.size).toBe(0);
  });

  it("merges refreshes: a row keeps its oldest value and takes its newest; one changed back, or added and removed, is left out", () => {
    const pending: Changes = new Map();
    const approved = { ...dana, status: "approved" as const };
    const fay = agentRecord({ id: "fay" });
    mergeChanges(pending, refreshOfAgents([dana, eli], [approved, { ...eli, status: "suspended" }, fay]));
    mergeChanges(pending, refreshOfAgents([approved, { ...eli, status: "suspended" }, fay], [{ ...approved, status: "rejected" }, eli]));
    expect(refreshEvent(pending, { agents: ["status"] }).agents).toEqual({
      added: [],
      changed: [{ id: "dana", before: { status: "pending" }, after: { status: "rejected" } }],
      removed: [],
    });
  });
});
