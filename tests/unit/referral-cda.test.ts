import { describe, expect, it } from "vitest";
import { cdaLines, cdaRefusal, cdaSchema, CDA_REFUSALS } from "../../app/domain/referrals/cda";
import { REFERRAL_STATUSES } from "../../app/domain/referrals/status";
import { referralRecord } from "../support/records";

const referral = {
  ...referralRecord(
    { email: "dana@example.com", fullName: "Dana Reyes", brokerage: "Lone Star Realty LLC" },
    { email: "maria@example.com", fullName: "Maria Delgado", brokerage: "Sooner Homes" },
    { id: "c27949cb-0000-4000-8000-000000000000", status: "under_contract", clientName: "Ana" },
  ),
  referringBrokerLicense: "9001234",
  receivingBrokerLicense: "155",
  expectedCloseDate: "2027-02-15T12:00:00.000Z",
  titleCompany: "Alamo Title",
  titleEmail: "closer@alamotitle.example",
};

describe("the CDA's text", () => {
  it("instructs the title company to pay the referring broker from the receiving broker's commission, naming both brokers, agents and the fee", () => {
    const text = cdaLines(referral).join("\n");
    expect(text).toContain("To the title company: Alamo Title <closer@alamotitle.example>");
    expect(text).toContain("Referral agreement No. C27949CB; client Ana. Expected closing: 2027-02-15.");
    expect(text).toContain("Pay to (referring broker): Lone Star Realty LLC, license 9001234");
    expect(text).toContain("  Referring agent: Dana Reyes");
    expect(text).toContain("Paid from (receiving broker): Sooner Homes, license 155");
    expect(text).toContain("  Receiving agent: Maria Delgado");
    expect(text).toContain("Referral fee: 25% of the receiving side's gross commission");
    expect(text).toContain("directly to the referring broker");
  });

  it("gives the amount once the closing made it known, a flat fee as its amount, and the closing date once closed", () => {
    const closed = { ...referral, status: "closed" as const, closeDate: "2027-02-20T12:00:00.000Z", feeAmount: 309000 };
    expect(cdaLines(closed).join("\n")).toContain("Referral fee: 25% of the receiving side's gross commission: $3,090.00");
    expect(cdaLines(closed).join("\n")).toContain("Closed on 2027-02-20.");
    const flat = { ...referral, feeType: "flat" as const, feePercent: undefined, feeFlat: 250000 };
    expect(cdaLines(flat).join("\n")).toContain("Referral fee: $2,500.00 (flat amount)");
  });

  it("says when a broker's details are missing instead of leaving a blank", () => {
    expect(cdaLines({ ...referral, receivingBrokerage: "", receivingBrokerLicense: "" }).join("\n")).toContain(
      "Paid from (receiving broker): (brokerage not given), license (not given)",
    );
  });
});

describe("who may send the CDA, and when", () => {
  it("is the receiving agent's, under contract or closed only", () => {
    const allowed = REFERRAL_STATUSES.filter((status) => cdaRefusal({ ...referral, status }, "receiving") === null);
    expect(allowed).toEqual(["under_contract", "closed"]);
    expect(cdaRefusal({ ...referral, status: "signed" }, "receiving")).toEqual({ status: 400, message: CDA_REFUSALS.wrongStatus });
    expect(cdaRefusal({ ...referral, status: "under_contract" }, "referring")).toEqual({ status: 403, message: CDA_REFUSALS.wrongParty });
  });

  it("is not sent while the fee looks mistyped: a fee over the commission", () => {
    const doubted = { ...referral, status: "closed" as const, grossCommission: 1_000_000, feeAmount: 2_000_000 };
    expect(cdaRefusal(doubted, "receiving")).toEqual({ status: 409, message: CDA_REFUSALS.feeDoubted });
    expect(cdaRefusal({ ...doubted, feeAmount: 250_000 }, "receiving")).toBeNull();
  });

  it("needs the title company's name, a valid e-mail and a date", () => {
    const parsed = cdaSchema.safeParse({ intent: "cda", titleCompany: " ", titleEmail: "not-an-email", expectedCloseDate: "15/02/2027" });
    expect(parsed.success).toBe(false);
    const messages = Object.fromEntries(parsed.error!.issues.map((issue) => [issue.path.join("."), issue.message]));
    expect(messages).toEqual({
      titleCompany: "Please enter the title company's name",
      titleEmail: "Please enter a valid email address",
      expectedCloseDate: "Please enter a date",
    });
    const good = cdaSchema.parse({
      intent: "cda",
      titleCompany: "Alamo Title",
      titleEmail: " Closer@AlamoTitle.example ",
      expectedCloseDate: "2027-02-15",
    });
    expect(good.titleEmail).toBe("closer@alamotitle.example");
  });
});
