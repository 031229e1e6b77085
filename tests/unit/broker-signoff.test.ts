import { describe, expect, it } from "vitest";
import { brokerStanding, brokerStateLabel, isBrokersLicense, isInForce, mayAskBroker } from "../../app/domain/referrals/broker-signoff";
import type { BrokerSignoff, Referral } from "../../app/domain/workbook/tabs";

const HASH = "a".repeat(64);
const OLD_HASH = "b".repeat(64);
const NOW = new Date("2026-11-27T12:00:00.000Z");

const signedByBoth = {
  id: "r-1",
  agreementHash: HASH,
  referringSignedHash: HASH,
  receivingSignedHash: HASH,
} as Referral;

let count = 0;
function row(fields: Partial<BrokerSignoff> & Pick<BrokerSignoff, "side" | "kind">): BrokerSignoff {
  count += 1;
  return {
    id: `s-${count}`,
    referralId: "r-1",
    agreementHash: HASH,
    brokerName: "Lone Star Realty",
    brokerLicense: "0412345",
    brokerEmail: "broker@example.com",
    byEmail: "maria@example.com",
    createdAt: `2026-11-2${count % 7}T10:00:00.000Z`,
    ...fields,
  };
}

describe("in force", () => {
  it("needs both agents' signatures and each side's broker attested or approved, on the current text", () => {
    const attested = row({ side: "referring", kind: "attested", createdAt: "2026-11-26T10:00:00.000Z" });
    const approved = row({
      side: "receiving",
      kind: "approved",
      byEmail: "",
      signedName: "John Smith",
      createdAt: "2026-11-26T11:00:00.000Z",
    });
    expect(isInForce(signedByBoth, [attested, approved], NOW)).toBe(true);
    // One broker only.
    expect(isInForce(signedByBoth, [attested], NOW)).toBe(false);
    // One agent only.
    expect(isInForce({ ...signedByBoth, receivingSignedHash: undefined }, [attested, approved], NOW)).toBe(false);
    // A sign-off of an earlier text does not count.
    expect(isInForce(signedByBoth, [attested, { ...approved, agreementHash: OLD_HASH }], NOW)).toBe(false);
    // An agent's signature of an earlier text does not count.
    expect(isInForce({ ...signedByBoth, referringSignedHash: OLD_HASH }, [attested, approved], NOW)).toBe(false);
  });

  it("is not reached while a broker was only asked", () => {
    const attested = row({ side: "referring", kind: "attested" });
    const asked = row({ side: "receiving", kind: "requested", expiresAt: "2026-12-04T10:00:00.000Z" });
    expect(isInForce(signedByBoth, [attested, asked], NOW)).toBe(false);
  });
});

describe("a side's standing", () => {
  it("is the latest row on the current text; a link expires; an approval stands", () => {
    const asked = row({
      side: "receiving",
      kind: "requested",
      expiresAt: "2026-11-27T11:00:00.000Z",
      createdAt: "2026-11-20T11:00:00.000Z",
    });
    const standing = brokerStanding(signedByBoth, [asked], "receiving", NOW);
    expect(standing).toMatchObject({ state: "requested", expired: true });
    expect(mayAskBroker(standing)).toBe(true);
    const live = { ...asked, expiresAt: "2026-12-04T11:00:00.000Z" };
    expect(mayAskBroker(brokerStanding(signedByBoth, [live], "receiving", NOW))).toBe(false);
    const approved = row({ side: "receiving", kind: "approved", createdAt: "2026-11-21T11:00:00.000Z", signedName: "John Smith" });
    const later = row({ side: "receiving", kind: "requested", createdAt: "2026-11-22T11:00:00.000Z" });
    expect(brokerStanding(signedByBoth, [asked, approved, later], "receiving", NOW).state).toBe("approved");
    expect(brokerStanding(signedByBoth, [asked], "referring", NOW).state).toBe("none");
  });

  it("reads as a sentence on the referral page", () => {
    const attested = brokerStanding(signedByBoth, [row({ side: "referring", kind: "attested" })], "referring", NOW);
    expect(brokerStateLabel(attested, "Sooner Homes", "Maria Delgado")).toBe("Attested by Maria Delgado");
    const asked = row({ side: "receiving", kind: "requested", expiresAt: "2026-12-04T10:00:00.000Z" });
    expect(brokerStateLabel(brokerStanding(signedByBoth, [asked], "receiving", NOW), "Lone Star Realty", "James")).toBe(
      "Waiting for Lone Star Realty's approval, link expires Dec 4, 2026, 4:00 AM CST",
    );
    const approved = row({ side: "receiving", kind: "approved", signedName: "John Smith", createdAt: "2026-11-27T09:00:00.000Z" });
    expect(brokerStateLabel(brokerStanding(signedByBoth, [approved], "receiving", NOW), "Lone Star Realty", "James")).toBe(
      "Approved by John Smith, Nov 27",
    );
  });
});

describe("the broker's license", () => {
  it("matches when it reads the same, spaces, dashes, case and leading zeros aside, and not another broker's", () => {
    expect(isBrokersLicense("0412345", "412345")).toBe(true);
    expect(isBrokersLicense("ok-155", "OK-155")).toBe(true);
    expect(isBrokersLicense("0412346", "0412345")).toBe(false);
    expect(isBrokersLicense(" ", "")).toBe(false);
  });
});
