import { describe, expect, it } from "vitest";
import { DIGEST_LIMIT, digestWeekDue, memberDigest, weekRequests, type DigestWeek } from "../../app/domain/digest";
import { nextInChain } from "../../app/domain/send-claims";
import { digestMail } from "../../app/server/mail/digest-mail.server";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";
import { agentRecord, requestRecord } from "../support/records";

const at = (iso: string) => new Date(iso);
/** One member's digest as the job computes it: the week's requests grouped once, then the member's market. */
const selectDigest = (requests: readonly ReferralRequest[], member: Agent, week: DigestWeek, now: Date) =>
  memberDigest(weekRequests(requests, week, now), member);
const due = (iso: string) => {
  const week = digestWeekDue(at(iso));
  return { week: week.week, dueAt: week.dueAt.toISOString(), since: week.since.toISOString() };
};

describe("which Monday 8:00 Central is due", () => {
  it("is this Monday's from 8:00 Central on, and the week before's until then", () => {
    // 2026-11-23 is a Monday; Central Standard Time is UTC−6.
    expect(due("2026-11-23T13:59:59.999Z")).toEqual({
      week: "2026-11-16",
      dueAt: "2026-11-16T14:00:00.000Z",
      since: "2026-11-09T14:00:00.000Z",
    });
    expect(due("2026-11-23T14:00:00.000Z")).toEqual({
      week: "2026-11-23",
      dueAt: "2026-11-23T14:00:00.000Z",
      since: "2026-11-16T14:00:00.000Z",
    });
    expect(due("2026-11-26T18:00:00.000Z").week).toBe("2026-11-23");
  });

  it("goes by Chicago's calendar: Sunday night in Chicago is already Monday in UTC", () => {
    expect(due("2026-11-30T05:00:00.000Z").week).toBe("2026-11-23");
    expect(due("2026-11-30T13:59:00.000Z").week).toBe("2026-11-23");
    expect(due("2026-11-30T14:00:00.000Z").week).toBe("2026-11-30");
  });

  it("follows daylight saving time: 8:00 CDT is 13:00 UTC, and the week it starts in is an hour shorter", () => {
    // DST began Sunday 2026-03-08 at 2:00.
    expect(due("2026-03-09T12:59:59.000Z").week).toBe("2026-03-02");
    expect(due("2026-03-09T13:00:00.000Z")).toEqual({
      week: "2026-03-09",
      dueAt: "2026-03-09T13:00:00.000Z",
      since: "2026-03-02T14:00:00.000Z",
    });
    // The Sunday of the change itself, after 2:00, still belongs to the week before.
    expect(due("2026-03-08T09:00:00.000Z").week).toBe("2026-03-02");
  });

  it("follows the end of daylight saving time: 8:00 CST is 14:00 UTC again, and that week is an hour longer", () => {
    // DST ended Sunday 2026-11-01 at 2:00.
    expect(due("2026-11-02T13:30:00.000Z").week).toBe("2026-10-26");
    expect(due("2026-11-02T14:00:00.000Z")).toEqual({
      week: "2026-11-02",
      dueAt: "2026-11-02T14:00:00.000Z",
      since: "2026-10-26T13:00:00.000Z",
    });
    expect(due("2026-11-01T07:30:00.000Z").week).toBe("2026-10-26");
  });
});

describe("a member's digest", () => {
  const member = agentRecord({ email: "reader@example.com", state: "TX", specialties: ["Residential", "Luxury"] });
  const poster = agentRecord({ email: "poster@example.com" });
  const week = digestWeekDue(at("2026-11-23T15:00:00.000Z"));
  const now = at("2026-11-23T15:00:00.000Z");
  const posted = (day: number, fields: Parameters<typeof requestRecord>[1] = {}) =>
    requestRecord(poster, {
      state: "TX",
      specialty: "Residential",
      createdAt: `2026-11-${String(day).padStart(2, "0")}T16:00:00.000Z`,
      ...fields,
    });

  it("lists the past week's live requests in the member's state and specialties, newest first, never their own", () => {
    const wanted = [posted(17, { title: "older" }), posted(20, { title: "newer", specialty: "Luxury" })];
    const others = [
      posted(18, { state: "OK" }),
      posted(18, { specialty: "Commercial" }),
      posted(18, { status: "deleted" }),
      posted(18, { expiresAt: "2026-11-22T00:00:00.000Z" }),
      posted(19, { agentEmail: "Reader@Example.com" }),
      posted(16, { createdAt: "2026-11-16T13:59:59.000Z" }),
      posted(23, { createdAt: "2026-11-23T14:00:00.000Z" }),
    ];
    const selection = selectDigest([...others, ...wanted], member, week, now);
    expect(selection.requests.map((request) => request.title)).toEqual(["newer", "older"]);
    expect(selection.total).toBe(2);
    expect(selection.listPath).toBe("/referral-requests?state=TX");
  });

  it("shows at most ten, counts the rest, and links the requests page filtered by the member's one specialty", () => {
    const many = Array.from({ length: 13 }, (_, i) => posted(17 + (i % 5), { title: `request ${i}` }));
    const single = { ...member, specialties: ["Residential"] };
    const selection = selectDigest(many, single, week, now);
    expect(selection.requests).toHaveLength(DIGEST_LIMIT);
    expect(selection.total).toBe(13);
    expect(selection.listPath).toBe("/referral-requests?state=TX&specialty=Residential");
    const mail = digestMail({ member: single, selection, requestUrl: (r) => `https://x.test/r/${r.id}`, listUrl: "https://x.test/list" });
    expect(mail.text).toContain("3 more are on the site. See every open request in your market: https://x.test/list");
    expect(mail.subject).toBe("13 new referral requests in your market last week");
  });

  it("leaves out requests by members blocked either way, and those the run leaves out (hidden, or by a suspended author)", () => {
    const requests = [
      posted(17, { title: "kept" }),
      posted(18, { title: "by a blocked member", agentEmail: "Blocked@Example.com" }),
      posted(19, { title: "hidden by staff" }),
    ];
    const grouped = weekRequests(requests, week, now, (request) => request.title === "hidden by staff");
    const selection = memberDigest(grouped, member, new Set(["blocked@example.com"]));
    expect(selection.requests.map((request) => request.title)).toEqual(["kept"]);
    expect(selection.total).toBe(1);
    expect(memberDigest(grouped, member).requests.map((request) => request.title)).toEqual(["by a blocked member", "kept"]);
  });

  it("escapes request titles in the HTML", () => {
    const selection = selectDigest([posted(18, { title: `<img src=x onerror="alert(1)">` })], member, week, now);
    const mail = digestMail({ member, selection, requestUrl: () => "https://x.test/r?a=1&b=2", listUrl: "https://x.test/list" });
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(mail.html).toContain('href="https://x.test/r?a=1&amp;b=2"');
    expect(mail.text).toContain(`<img src=x onerror="alert(1)">`);
  });
});

describe("the chain of throttled notifications", () => {
  it("claims the link after the highest that has a row, whoever won the ones before", () => {
    expect(nextInChain("message:c/a@x.test", [])).toBe("message:c/a@x.test#0");
    const claimed = ["s#0", "s#1", "s#2"];
    expect(nextInChain("s", claimed)).toBe("s#3");
  });

  it("goes on past the highest link when the links below it were deleted, and never looks at another subject's", () => {
    expect(nextInChain("s", ["s#7"])).toBe("s#8");
    expect(nextInChain("s", ["s#2", "s#10", "s#9"])).toBe("s#11");
    expect(nextInChain("s", ["st#4", "s#x", "digest:s#3"])).toBe("s#0");
  });
});
