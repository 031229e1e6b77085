import { describe, expect, it } from "vitest";
import { brokerFeeCsvRows, clientInitials, type BrokerFee } from "../../app/domain/brokers";
import { isBrokerLicense, type TrecLicense } from "../../app/domain/license-check";
import { toCsv } from "../../app/domain/csv";

const fee: BrokerFee = {
  direction: "Received",
  paidOn: "2026-03-02",
  receivedOn: "2026-03-04",
  reference: "No. C27949CB",
  otherBroker: "Sooner Homes",
  otherBrokerLicense: "155",
  referringAgent: "Dana Reyes",
  receivingAgent: "Maria Delgado",
  clientName: "Ana",
  amountCents: 309000,
};

describe("the broker's fee CSV", () => {
  it("lists each fee paid or received, oldest first, with the other broker, both agents, the client's initials and the amount", () => {
    const later: BrokerFee = { ...fee, direction: "Paid", paidOn: "2026-05-01", receivedOn: "", clientName: "J.R.", amountCents: 250000 };
    expect(brokerFeeCsvRows([later, fee])).toEqual([
      [
        "Paid on",
        "Receipt confirmed on",
        "Paid or received",
        "Agreement",
        "Other broker",
        "Other broker's license",
        "Referring agent",
        "Receiving agent",
        "Client",
        "Amount",
      ],
      ["2026-03-02", "2026-03-04", "Received", "No. C27949CB", "Sooner Homes", "155", "Dana Reyes", "Maria Delgado", "A.", "3090.00"],
      ["2026-05-01", "", "Paid", "No. C27949CB", "Sooner Homes", "155", "Dana Reyes", "Maria Delgado", "J.R.", "2500.00"],
    ]);
  });

  it("never lets a typed name run as a spreadsheet formula", () => {
    const csv = toCsv(brokerFeeCsvRows([{ ...fee, otherBroker: '=HYPERLINK("http://x")', referringAgent: "+Dana" }]));
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(csv).toContain(",'+Dana,");
  });

  it("reduces a first name to its initial and keeps initials", () => {
    expect(clientInitials("ana")).toBe("A.");
    expect(clientInitials("JR")).toBe("JR");
    expect(clientInitials("J.R.")).toBe("J.R.");
    expect(clientInitials("Émile")).toBe("É.");
  });
});

describe("which TREC licenses open the broker's view", () => {
  it("is the individual, LLC, corporation and partnership broker licenses, not sales agents or branch offices", () => {
    const license = (licenseType: string): TrecLicense => ({
      licenseNumber: "9001234",
      licenseType,
      fullName: "LONE STAR REALTY LLC",
      suffix: "",
      status: "Current and active",
      expiration: "2099-12-31",
      sponsorName: "",
      sponsorLicenseNumber: "",
      email: "office@lonestar.example",
    });
    expect(["BRK", "BLLC", "BCRP", "6", "SALE", "REB"].filter((licenseType) => isBrokerLicense(license(licenseType)))).toEqual([
      "BRK",
      "BLLC",
      "BCRP",
      "6",
    ]);
  });
});
