import { describe, expect, it } from "vitest";
import { sheetValueText } from "../../app/domain/workbook/columns";
import { parseRow, serialiseRecord } from "../../app/domain/workbook/rows";
import {
  AGENTS_TAB,
  CONTACT_TAB,
  MESSAGES_TAB,
  REQUESTS_TAB,
  RESPONSES_TAB,
  SEND_CLAIMS_TAB,
  WORKBOOK,
  type Agent,
  type ReferralRequest,
} from "../../app/domain/workbook/tabs";

const agentCells = {
  id: "a-1",
  fullName: "Dana Reyes",
  email: "dana@example.com",
  status: "pending",
  membershipType: "founder",
  createdAt: "2025-03-01T15:04:05.000Z",
};

const requestCells = {
  id: "r-1",
  requestType: "referral",
  agentEmail: "dana@example.com",
  createdAt: "2025-03-01T15:04:05.000Z",
};

function parsed<T>(result: ReturnType<typeof parseRow>): T {
  if (result.ok !== true) throw new Error(`did not parse: ${JSON.stringify(result)}`);
  return result.record as T;
}

describe("the workbook contract", () => {
  it("has its tabs with their headers, id first, in the documented order", () => {
    expect(Object.values(WORKBOOK).map((tab) => tab.name)).toEqual([
      "Agents",
      "Requests",
      "Responses",
      "Messages",
      "ConversationMembers",
      "Contact",
      "Marks",
      "Referrals",
      "ReferralEvents",
      "SendClaims",
      "Blocks",
      "Reports",
      "Reviews",
      "Invitations",
      "BrokerSignoffs",
      "Brokers",
      "PushSubscriptions",
      "Suppressions",
      "Moderation",
      "Outreach",
    ]);
    expect(WORKBOOK.moderation.headers).toEqual(["id", "kind", "itemId", "action", "note", "staffEmail", "createdAt"]);
    expect(SEND_CLAIMS_TAB.headers).toEqual(["id", "key", "instance", "outcome", "note", "claimedAt"]);
    expect(AGENTS_TAB.headers).toEqual([
      "id",
      "fullName",
      "email",
      "phone",
      "state",
      "city",
      "zipCode",
      "licenseNumber",
      "licenseState",
      "licenseExpiration",
      "brokerage",
      "brokerEmail",
      "specialties",
      "bio",
      "photoUrl",
      "membershipType",
      "vipCode",
      "status",
      "statusNote",
      "passwordHash",
      "createdAt",
      "updatedAt",
      "sessionsEndedAt",
      "licenseCheck",
      "licenseCheckedAt",
      "licenseCheckNote",
      "mailOff",
      "brokerLicenseNumber",
      "decisionsMailed",
      "placesServed",
      "serviceRadius",
      "brokerFrom",
      "pushOn",
      "calendarKey",
      "invitedBy",
    ]);
    expect(REQUESTS_TAB.headers).toEqual([
      "id",
      "requestType",
      "title",
      "location",
      "state",
      "specialty",
      "priceRange",
      "clientType",
      "timeline",
      "contactPreference",
      "listingAddress",
      "listingMLS",
      "description",
      "urgent",
      "agentEmail",
      "agentName",
      "status",
      "responses",
      "createdAt",
      "updatedAt",
      "expiresAt",
      "lastNotifiedAt",
      "respondBy",
    ]);
    expect(RESPONSES_TAB.headers).toEqual(["id", "requestId", "fromEmail", "fromName", "toEmail", "message", "createdAt"]);
    expect(MESSAGES_TAB.headers).toEqual(["id", "conversationId", "fromEmail", "toEmail", "text", "createdAt", "via"]);
    expect(CONTACT_TAB.headers).toEqual(["id", "name", "email", "subject", "category", "message", "agentLicense", "state", "createdAt"]);
    expect(
      Object.values(WORKBOOK)
        .filter((tab) => tab.appendOnly)
        .map((tab) => tab.name),
    ).toEqual(["Responses", "Messages", "Contact", "ReferralEvents", "SendClaims", "BrokerSignoffs"]);
  });
});

describe("reading rows typed by people", () => {
  it("trims cells and reads enumerations in any case", () => {
    const agent = parsed<Agent>(
      parseRow(AGENTS_TAB, { ...agentCells, id: " a-1 ", status: "Approved ", membershipType: "VIP", state: " tx" }),
    );
    expect(agent).toMatchObject({ id: "a-1", status: "approved", membershipType: "vip", state: "TX" });
  });

  it("gives blank enumerations their default", () => {
    const agent = parsed<Agent>(parseRow(AGENTS_TAB, { ...agentCells, status: "", membershipType: " " }));
    expect(agent).toMatchObject({ status: "pending", membershipType: "member" });
    expect(parsed<ReferralRequest>(parseRow(REQUESTS_TAB, requestCells)).status).toBe("active");
  });

  it("reads where the broker came from in any case, blank as unknown, and refuses another word", () => {
    expect(parsed<Agent>(parseRow(AGENTS_TAB, { ...agentCells, brokerFrom: " TREC " })).brokerFrom).toBe("trec");
    expect(parsed<Agent>(parseRow(AGENTS_TAB, { ...agentCells, brokerFrom: "" })).brokerFrom).toBeUndefined();
    expect(parseRow(AGENTS_TAB, { ...agentCells, brokerFrom: "staff" }).ok).toBe(false);
  });

  it("reads places served between semicolons, and a radius in miles", () => {
    const agent = parsed<Agent>(
      parseRow(AGENTS_TAB, { ...agentCells, placesServed: " Tyler,  TX;; Longview, TX ;", serviceRadius: "50 mi" }),
    );
    expect(agent).toMatchObject({ placesServed: ["Tyler, TX", "Longview, TX"], serviceRadius: 50 });
    expect(parsed<Agent>(parseRow(AGENTS_TAB, { ...agentCells, serviceRadius: "" })).serviceRadius).toBeUndefined();
    expect(parseRow(AGENTS_TAB, { ...agentCells, serviceRadius: "30" }).ok).toBe(false);
  });

  it("lower-cases e-mail addresses", () => {
    expect(parsed<Agent>(parseRow(AGENTS_TAB, { ...agentCells, email: "Dana@Example.COM" })).email).toBe("dana@example.com");
  });

  it("reads specialties as a comma-separated list in the options' spelling", () => {
    const agent = parsed<Agent>(parseRow(AGENTS_TAB, { ...agentCells, specialties: "luxury,  FARM AND RANCH ,, Tiny Homes" }));
    expect(agent.specialties).toEqual(["Luxury", "Farm and Ranch", "Tiny Homes"]);
    expect(serialiseRecord(AGENTS_TAB, agent).specialties).toBe("Luxury, Farm and Ranch, Tiny Homes");
    expect(parsed<Agent>(parseRow(AGENTS_TAB, agentCells)).specialties).toEqual([]);
  });

  it.each([
    ["true", true],
    ["Yes", true],
    ["1", true],
    ["x", true],
    ["", false],
    ["FALSE", false],
    ["no", false],
    ["0", false],
  ])("reads urgent %j as %s", (cell, expected) => {
    expect(parsed<ReferralRequest>(parseRow(REQUESTS_TAB, { ...requestCells, urgent: cell })).urgent).toBe(expected);
  });

  it("reads the responses count, blank as 0", () => {
    expect(parsed<ReferralRequest>(parseRow(REQUESTS_TAB, { ...requestCells, responses: " 12 " })).responses).toBe(12);
    expect(parsed<ReferralRequest>(parseRow(REQUESTS_TAB, requestCells)).responses).toBe(0);
  });

  it("keeps times as ISO 8601 UTC, whatever date text staff typed", () => {
    const agent = parsed<Agent>(parseRow(AGENTS_TAB, { ...agentCells, createdAt: "2025-03-01", updatedAt: "2025-03-02T10:00:00-05:00" }));
    expect(agent.createdAt).toBe("2025-03-01T00:00:00.000Z");
    expect(agent.updatedAt).toBe("2025-03-02T15:00:00.000Z");
    expect(parsed<Agent>(parseRow(AGENTS_TAB, agentCells)).updatedAt).toBeUndefined();
  });

  it("reads only ISO 8601 dates: a bare number is never a year, a local date is never guessed", () => {
    for (const typed of ["47483", "2025", "3/4/2025", "March 4, 2025", "2025-02-30", "2025-13-01"]) {
      expect(parseRow(AGENTS_TAB, { ...agentCells, createdAt: typed }), typed).toMatchObject({
        ok: false,
        reason: "createdAt is not a date and time",
      });
    }
    const agent = parsed<Agent>(parseRow(AGENTS_TAB, { ...agentCells, updatedAt: "2025-03-04 09:30" }));
    expect(agent.updatedAt).toBe("2025-03-04T09:30:00.000Z");
  });

  it("turns the Sheets API's unformatted values into the text each column reads", () => {
    expect(sheetValueText("time", 45720.5)).toBe("2025-03-04T12:00:00.000Z");
    expect(sheetValueText("text", 123456)).toBe("123456");
    expect(sheetValueText("flag", true)).toBe("true");
    expect(sheetValueText("number", 3)).toBe("3");
    expect(sheetValueText("time", "2025-03-04")).toBe("2025-03-04");
    expect(sheetValueText(undefined, undefined)).toBe("");
  });

  it("explains every column that does not read", () => {
    expect(parseRow(REQUESTS_TAB, { ...requestCells, urgent: "maybe", responses: "two", createdAt: "soon" })).toEqual({
      ok: false,
      reason: "urgent must be true or false; responses must be a whole number; createdAt is not a date and time",
    });
    expect(parseRow(AGENTS_TAB, { ...agentCells, id: "  ", email: "" })).toEqual({ ok: false, reason: "id is empty; email is empty" });
  });

  it("calls a row blank when every column the app knows is blank, whatever staff columns hold", () => {
    expect(parseRow(MESSAGES_TAB, { id: " ", text: "", "Staff notes": "spam" })).toEqual({ ok: "blank" });
  });
});

describe("writing records", () => {
  it("writes every value as text and reads it back the same", () => {
    const request = parsed<ReferralRequest>(
      parseRow(REQUESTS_TAB, {
        ...requestCells,
        urgent: "yes",
        responses: "3",
        description: '=HYPERLINK("x")',
        expiresAt: "2025-04-01T00:00:00.000Z",
      }),
    );
    const cells = serialiseRecord(REQUESTS_TAB, request);
    expect(cells).toMatchObject({
      urgent: "true",
      responses: "3",
      description: '=HYPERLINK("x")',
      updatedAt: "",
      expiresAt: "2025-04-01T00:00:00.000Z",
    });
    expect(Object.keys(cells)).toEqual(REQUESTS_TAB.headers);
    expect(parsed<ReferralRequest>(parseRow(REQUESTS_TAB, cells))).toEqual(request);
  });
});
