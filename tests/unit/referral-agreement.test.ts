import { describe, expect, it } from "vitest";
import {
  feeLabel,
  proposalDefaults,
  proposalSchema,
  proposalValues,
  stepSchemas,
  termEnd,
  termsFromProposal,
} from "../../app/domain/referrals/agreement";
import { agreementText } from "../../app/domain/referrals/agreement-text";
import type { Referral } from "../../app/domain/workbook/tabs";

const referral: Referral = {
  id: "r-1",
  requestId: "q-1",
  status: "proposed",
  proposedByEmail: "maria@example.com",
  referringEmail: "maria@example.com",
  referringName: "Maria Delgado",
  referringBrokerage: "Sooner Homes",
  referringBrokerLicense: "OK-155",
  referringBrokerEmail: "",
  receivingEmail: "james@example.com",
  receivingName: "James Whitfield",
  receivingBrokerage: "",
  receivingBrokerLicense: "",
  receivingBrokerEmail: "",
  clientName: "Ana",
  side: "seller",
  feeType: "flat",
  feePercent: undefined,
  feeFlat: 250050,
  termMonths: 1,
  feeDue: "at closing",
  terms: "  <b>=SUM(A1)</b>\nSecond line  ",
  createdAt: "2026-11-23T12:00:00.000Z",
};

describe("the proposal's defaults", () => {
  it("make the agent with the client the referrer", () => {
    const referralRequest = { requestType: "referral" as const, clientType: "seller" };
    expect(proposalDefaults(referralRequest, true)).toMatchObject({ referrer: "me", side: "seller", feePercent: "25", termMonths: 12 });
    expect(proposalDefaults(referralRequest, false).referrer).toBe("them");
    // A listing's poster has the home; the responder brings the buyer and refers.
    expect(proposalDefaults({ requestType: "listing", clientType: "" }, true)).toMatchObject({ referrer: "them", side: "buyer" });
    expect(proposalDefaults({ requestType: "buyer", clientType: "" }, false)).toMatchObject({ referrer: "them", side: "buyer" });
  });
});

describe("the proposal form", () => {
  const valid = {
    referrer: "me",
    clientName: "J.R.",
    side: "tenant",
    feeType: "percent",
    feePercent: "12.5%",
    termMonths: 6,
    feeDue: "at closing",
  };

  it("accepts a first name or initials and a percentage from 1 to 50, kept as columns", () => {
    const input = proposalSchema.parse(valid);
    expect(termsFromProposal(input)).toMatchObject({
      clientName: "J.R.",
      feeType: "percent",
      feePercent: 12.5,
      feeFlat: undefined,
      terms: "",
    });
    for (const percent of ["1", "50"]) expect(proposalSchema.safeParse({ ...valid, feePercent: percent }).success).toBe(true);
  });

  it("refuses full names, contact details, and percentages outside 1 to 50", () => {
    for (const clientName of ["Ana Lopez", "ana@example.com", "555-0100"])
      expect(proposalSchema.safeParse({ ...valid, clientName }).success, clientName).toBe(false);
    for (const feePercent of ["0", "0.5", "51", "abc", ""])
      expect(proposalSchema.safeParse({ ...valid, feePercent }).success, feePercent).toBe(false);
  });

  it("needs the flat amount only when the fee is flat", () => {
    expect(proposalSchema.safeParse({ ...valid, feeType: "flat", feePercent: "" }).success).toBe(false);
    expect(termsFromProposal(proposalSchema.parse({ ...valid, feeType: "flat", feeFlat: "$2,500.50" }))).toMatchObject({
      feeFlat: 250050,
      feePercent: undefined,
    });
  });

  it("fills the change-terms form from the row, seen from either party", () => {
    expect(proposalValues(referral, "maria@example.com")).toMatchObject({ referrer: "me", feeFlat: "2,500.50", feePercent: "" });
    expect(proposalValues(referral, "james@example.com").referrer).toBe("them");
  });
});

describe("the agreement's text", () => {
  it("names both parties and brokers and every term, the typed terms as text", () => {
    const text = agreementText(referral);
    expect(text).toContain("Maria Delgado <maria@example.com>");
    expect(text).toContain("Sponsoring broker: Sooner Homes, broker license OK-155");
    expect(text).toContain("Sponsoring broker: (brokerage not given), broker license (not given)");
    expect(text).toContain('refers the client "Ana" (seller)');
    expect(text).toContain("Referral fee: $2,500.50 (flat amount)");
    expect(text).toContain("Term: 1 month from");
    expect(text).toContain("The fee is due at closing.");
    expect(text).toContain("Further terms:\n<b>=SUM(A1)</b>\nSecond line\n");
  });

  it("changes with any term", () => {
    expect(agreementText({ ...referral, feeFlat: 250051 })).not.toBe(agreementText(referral));
    expect(agreementText({ ...referral, receivingBrokerLicense: "TX-1" })).not.toBe(agreementText(referral));
  });

  it("labels a percentage fee", () => {
    expect(feeLabel({ feeType: "percent", feePercent: 25, feeFlat: undefined })).toBe("25% of the receiving side's gross commission");
  });
});

describe("the term's end", () => {
  it("is the same day months later, or the month's last day when shorter", () => {
    expect(termEnd(new Date("2026-11-23T15:00:00Z"), 12).toISOString()).toBe("2027-11-23T15:00:00.000Z");
    expect(termEnd(new Date("2027-01-31T15:00:00Z"), 1).toISOString()).toBe("2027-02-28T15:00:00.000Z");
    expect(termEnd(new Date("2027-08-31T15:00:00Z"), 6).toISOString()).toBe("2028-02-29T15:00:00.000Z");
  });
});

describe("the lost step's reason", () => {
  it("takes up to 300 characters and says so in the words of a limit, at most 300", () => {
    expect(stepSchemas.lost.safeParse({ intent: "lost", reason: "x".repeat(300) }).success).toBe(true);
    const tooLong = stepSchemas.lost.safeParse({ intent: "lost", reason: "x".repeat(301) });
    expect(tooLong.error?.issues.map((issue) => issue.message)).toEqual(["Please keep the reason to at most 300 characters"]);
  });
});
