import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { agreementText, CURRENT_AGREEMENT_VERSION } from "../../app/domain/referrals/agreement-text";
import type { Referral } from "../../app/domain/workbook/tabs";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** An agreement signed under the first text: its row has no version. */
const signedUnderFirstText: Referral = {
  id: "5f0c2a9e-1b7d-4c3e-9a51-0d2e8f6b7c41",
  requestId: "a13e9b70-6c2d-4f81-b9e4-27d5c0f3a8b6",
  status: "signed",
  proposedByEmail: "maria@example.com",
  referringEmail: "maria@example.com",
  referringName: "Maria Delgado",
  referringBrokerage: "Sooner Homes",
  referringBrokerLicense: "OK-155",
  referringBrokerEmail: "",
  receivingEmail: "james@example.com",
  receivingName: "James Whitfield",
  receivingBrokerage: "Hill Country Homes",
  receivingBrokerLicense: "TX-9001",
  receivingBrokerEmail: "",
  clientName: "Ana",
  side: "buyer",
  feeType: "percent",
  feePercent: 25,
  feeFlat: undefined,
  termMonths: 12,
  feeDue: "within 10 days after closing or funding",
  terms: "Covers 12 Elm St only.",
  createdAt: "2026-10-01T12:00:00.000Z",
};

describe("the agreement's versions", () => {
  it("keeps the first text byte for byte, in both reference forms, so stored hashes of signed agreements still verify", () => {
    // The SHA-256 values the first text had when agreements were signed under it.
    expect(sha256(agreementText(signedUnderFirstText))).toBe("a14b202a1c3afa26887001dfb4b8ab6062b9fc4da1def169a43d0997353c8f46");
    expect(sha256(agreementText(signedUnderFirstText, "full ids"))).toBe(
      "9fdbd1bd588c9d6ea72790dcdf190b5801a78058095ebd5f0cf6bde3e43add26",
    );
  });

  it("keeps the second text byte for byte, the client's side named twice as it was signed, so its stored hashes still verify", () => {
    // The SHA-256 values the second text had when agreements were signed under it.
    const second = { ...signedUnderFirstText, agreementVersion: "2" };
    expect(sha256(agreementText(second))).toBe("9ebf361f2c6f3ec5afd98eb271da35762723ac0f8eb95602e5ce66ec2d2628ae");
    expect(sha256(agreementText({ ...second, side: "tenant" }))).toBe("c0c601010fa28aa51e376501223330d8d3bcc72371b9316c03842ad426238593");
    expect(agreementText(second)).toContain('refers the client "Ana" (buyer, buying) to the receiving broker.');
  });

  it("names the client's side in one word in the current text, which says its version", () => {
    expect(CURRENT_AGREEMENT_VERSION).toBe("3");
    const text = agreementText({ ...signedUnderFirstText, agreementVersion: CURRENT_AGREEMENT_VERSION });
    expect(text).toContain('1. The referring broker refers the client "Ana" (buyer) to the receiving broker.');
    expect(text).toContain("Text version 3.");
    expect(text).not.toContain("buying");
  });

  it("writes the current version as an agreement between the sponsoring brokers, with every term the law asks for", () => {
    const text = agreementText({ ...signedUnderFirstText, agreementVersion: CURRENT_AGREEMENT_VERSION, side: "tenant" });
    expect(text).toContain("REFERRAL AGREEMENT BETWEEN BROKERS");
    expect(text).toContain("Referring broker: Sooner Homes, broker license OK-155");
    expect(text).toContain("  through its agent Maria Delgado <maria@example.com>");
    expect(text).toContain("Receiving broker: Hill Country Homes, broker license TX-9001");
    expect(text).toContain("  through its agent James Whitfield <james@example.com>");
    expect(text).toContain('refers the client "Ana" (tenant)');
    expect(text).toContain("Referral fee: 25% of the receiving side's gross commission");
    expect(text).toContain("Term: 12 months from the date the agreement is in force.");
    expect(text).toContain("The fee is due within 10 days after closing or funding.");
    expect(text).toContain("paid by the receiving broker to the referring broker");
    expect(text).toContain("Tex. Occ. Code §1101.651; 22 TAC §535.147");
    expect(text).toContain("in Oklahoma an associate may accept compensation only from their own broker");
    expect(text).toContain("family members, the client's business partners, and any entity the client owns or controls");
    expect(text).toContain("Further terms:\nCovers 12 Elm St only.");
    expect(text).not.toBe(agreementText(signedUnderFirstText));
  });

  it("changes the current text with any term or broker, and never with the reference form", () => {
    const current = { ...signedUnderFirstText, agreementVersion: CURRENT_AGREEMENT_VERSION };
    expect(agreementText({ ...current, receivingBrokerLicense: "TX-1" })).not.toBe(agreementText(current));
    expect(agreementText({ ...current, side: "seller" })).not.toBe(agreementText(current));
    expect(agreementText(current, "full ids")).toBe(agreementText(current));
  });
});
