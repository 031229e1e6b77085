import { describe, expect, it } from "vitest";
import type { ReferralRequest } from "../../app/domain/workbook/tabs";
import { createLiveRequests } from "../../app/server/referral-requests/live-requests.server";
import { agentRecord, requestRecord } from "../support/records";

/** A Requests store tab that counts how often the live list is read from it. */
function requestsTab(initial: ReferralRequest[]) {
  const tab = { rows: initial, version: 1, reads: 0 };
  const store = {
    agents: { version: () => 1, by: () => [] },
    requests: {
      version: () => tab.version,
      by: (_index: string, status: string) => {
        tab.reads += 1;
        return tab.rows.filter((request) => request.status === status);
      },
    },
  };
  return { tab, live: createLiveRequests(store as never) };
}

const owner = agentRecord();
const older = requestRecord(owner, { title: "Older", location: "Austin", createdAt: "2026-11-01T10:00:00.000Z" });
const newer = requestRecord(owner, { title: "Newer", location: "Waco", createdAt: "2026-11-20T10:00:00.000Z" });
const now = new Date("2026-11-23T12:00:00.000Z");
const titles = (requests: readonly ReferralRequest[]) => requests.map((request) => request.title);

describe("the live requests kept per version of the Requests tab", () => {
  it("puts the live requests in each order once and serves every later page from that", () => {
    const { tab, live } = requestsTab([older, newer]);
    expect(titles(live.inOrder("newest", now))).toEqual(["Newer", "Older"]);
    expect(titles(live.inOrder("location", now))).toEqual(["Older", "Newer"]);
    expect(titles(live.inOrder("newest", new Date(now.getTime() + 60_000)))).toEqual(["Newer", "Older"]);
    expect(tab.reads).toBe(1);
  });

  it("reads the tab again when it changed", () => {
    const { tab, live } = requestsTab([older]);
    expect(titles(live.inOrder("newest", now))).toEqual(["Older"]);
    tab.rows = [older, newer];
    tab.version += 1;
    expect(titles(live.inOrder("newest", now))).toEqual(["Newer", "Older"]);
    expect(tab.reads).toBe(2);
  });

  it("drops a request the moment it expires, though the tab did not change", () => {
    const { live } = requestsTab([older, newer]);
    expect(titles(live.inOrder("newest", now))).toEqual(["Newer", "Older"]);
    const afterOlderExpired = new Date(Date.parse(older.expiresAt!) + 1);
    expect(titles(live.inOrder("newest", afterOlderExpired))).toEqual(["Newer"]);
  });

  it("reads again for a clock earlier than the list's, when a request then still live was left out", () => {
    const { live } = requestsTab([older, newer]);
    const afterOlderExpired = new Date(Date.parse(older.expiresAt!) + 1);
    expect(titles(live.inOrder("newest", afterOlderExpired))).toEqual(["Newer"]);
    expect(titles(live.inOrder("newest", now))).toEqual(["Newer", "Older"]);
  });
});
