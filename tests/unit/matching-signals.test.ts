import { describe, expect, it } from "vitest";
import { countSignals, latestMessageActivity, type SignalRows } from "~/domain/matching/signals";
import type { Invitation } from "~/domain/workbook/tabs";
import { agentRecord, referralRecord, requestRecord } from "../support/records";

const poster = agentRecord({ email: "poster@example.com" });
const responder = agentRecord({ email: "responder@example.com" });
const receiver = agentRecord({ email: "receiver@example.com" });

const noRows = (): SignalRows => ({
  requests: [],
  responses: [],
  referrals: [],
  referralEvents: [],
  messageActivity: new Map(),
  marks: [],
  invitations: [],
});

function invitation(requestId: string, agentEmail: string, status: Invitation["status"]): Invitation {
  return {
    id: `${requestId}/${agentEmail}`,
    requestId,
    posterEmail: poster.email,
    agentEmail,
    status,
    reason: "",
    createdAt: "2026-11-01T00:00:00.000Z",
    answeredAt: status === "declined" ? "2026-11-02T00:00:00.000Z" : undefined,
    remindedAt: undefined,
  };
}

describe("the signals the ranking counts from the workbook", () => {
  it("counts each request once per agent in its price range, whether they posted it, responded or took a referral from it", () => {
    const mid = requestRecord(poster, { priceRange: "$200k - $400k" });
    const top = requestRecord(poster, { priceRange: "Over $5M" });
    const { experience } = countSignals({
      ...noRows(),
      requests: [mid, top],
      responses: [
        {
          id: "r1",
          requestId: mid.id,
          fromEmail: responder.email,
          fromName: "",
          toEmail: poster.email,
          message: "",
          createdAt: "2026-11-01T00:00:00.000Z",
        },
        {
          id: "r2",
          requestId: mid.id,
          fromEmail: receiver.email,
          fromName: "",
          toEmail: poster.email,
          message: "",
          createdAt: "2026-11-01T00:00:00.000Z",
        },
      ],
      referrals: [referralRecord(poster, receiver, { requestId: mid.id }), referralRecord(poster, receiver, { requestId: top.id })],
    });
    expect(Object.fromEntries(experience.get(poster.email)!)).toEqual({ "$200k - $400k": 1, "Over $5M": 1 });
    expect(Object.fromEntries(experience.get(receiver.email)!)).toEqual({ "$200k - $400k": 1, "Over $5M": 1 });
    expect(Object.fromEntries(experience.get(responder.email)!)).toEqual({ "$200k - $400k": 1 });
  });

  it("counts Not a fit answers by the specialty of the request, and nothing else the invitations hold", () => {
    const land = requestRecord(poster, { specialty: "Land" });
    const luxury = requestRecord(poster, { specialty: "Luxury" });
    const { declines } = countSignals({
      ...noRows(),
      requests: [land, luxury],
      invitations: [
        invitation(land.id, responder.email, "declined"),
        invitation(luxury.id, responder.email, "declined"),
        invitation(land.id, receiver.email, "invited"),
        invitation(luxury.id, receiver.email, "hidden"),
        invitation("gone", receiver.email, "declined"),
      ],
    });
    expect(Object.fromEntries(declines.get(responder.email)!)).toEqual({ Land: 1, Luxury: 1 });
    expect(declines.has(receiver.email)).toBe(false);
  });

  it("takes the latest time each agent wrote anything as their last activity", () => {
    const request = requestRecord(poster, { createdAt: "2026-10-01T00:00:00.000Z", updatedAt: "2026-10-05T00:00:00.000Z" });
    const { lastActiveAt } = countSignals({
      ...noRows(),
      requests: [request],
      messageActivity: latestMessageActivity(
        [{ fromEmail: responder.email, createdAt: "2026-09-01T00:00:00.000Z" }],
        [{ agentEmail: responder.email, lastReadAt: "2026-11-20T00:00:00.000Z" }],
      ),
      referralEvents: [
        { id: "e1", referralId: "x", step: "closed", byEmail: receiver.email, note: "", createdAt: "2026-11-03T00:00:00.000Z" },
      ],
      invitations: [invitation(request.id, receiver.email, "declined")],
    });
    expect(lastActiveAt.get(poster.email)).toBe(Date.parse("2026-10-05T00:00:00.000Z"));
    expect(lastActiveAt.get(responder.email)).toBe(Date.parse("2026-11-20T00:00:00.000Z"));
    expect(lastActiveAt.get(receiver.email)).toBe(Date.parse("2026-11-03T00:00:00.000Z"));
  });
});
