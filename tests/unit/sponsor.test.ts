import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { licenseKey, parseTrecLine, type TrecLicense } from "../../app/domain/license-check";
import {
  isActiveSponsor,
  lacksBrokerFacts,
  sponsoredByLine,
  sponsoringBroker,
  sponsorUpdate,
  sponsorValues,
  unfilledBrokerMessage,
} from "../../app/domain/sponsor";

/** Lines in TREC's published layout (tab-delimited, no header, CR LF, one license a line). */
const records = readFileSync(path.resolve("tests/fixtures/trec/sponsors.txt"), "latin1")
  .split("\r\n")
  .filter(Boolean)
  .map((text, index) => parseTrecLine(text, index + 1));
const byKey = new Map(records.map((record) => [licenseKey(record.licenseNumber), record]));
const lookup = (licenseNumber: string): TrecLicense | undefined => byKey.get(licenseKey(licenseNumber));
const TODAY = "2026-11-27";

function sponsorOf(licenseNumber: string) {
  const license = lookup(licenseNumber);
  if (license === undefined) throw new Error(`${licenseNumber} is not in the fixture`);
  return sponsoringBroker(license, lookup, TODAY);
}

describe("the sponsoring broker in TREC's data", () => {
  it("gives a sales agent their broker, named and reached as the broker's own record says", () => {
    const sponsor = sponsorOf("612345");
    expect(sponsor).toEqual({
      name: "GULF COAST HOMES LLC",
      licenseNumber: "9002468",
      email: "broker@gulfcoasthomes.example",
      status: "active",
    });
    expect(isActiveSponsor(sponsor)).toBe(true);
  });

  it("reports a sponsor whose license expired as expired, not as a broker to use", () => {
    const sponsor = sponsorOf("0623456");
    expect(sponsor).toEqual({ name: "BAYOU REALTY INC", licenseNumber: "9003579", email: "office@bayourealty.example", status: "expired" });
    expect(isActiveSponsor(sponsor)).toBe(false);
  });

  it("gives a sales agent with no related license no sponsor", () => {
    expect(sponsorOf("0634567")).toBeNull();
    expect(isActiveSponsor(null)).toBe(false);
  });

  it("makes an individual broker their own broker", () => {
    expect(sponsorOf("0545678")).toEqual({
      name: "OKAFOR, GRACE",
      licenseNumber: "0545678",
      email: "grace@okaforrealty.example",
      status: "active",
    });
  });

  it("names a sponsor missing from the data as the agent's record does, with no e-mail, and does not use it", () => {
    const sponsor = sponsorOf("0656789");
    expect(sponsor).toEqual({ name: "PRAIRIE WIND REALTY LLC", licenseNumber: "9009999", email: "", status: "not in TREC's data" });
    expect(isActiveSponsor(sponsor)).toBe(false);
  });
});

describe("filling the registration's broker fields", () => {
  it("gives each field the sponsor's value, leaving out an e-mail TREC lacks", () => {
    expect(sponsorValues({ name: "GULF COAST HOMES LLC", licenseNumber: "9002468", email: "b@gulf.example", status: "active" })).toEqual({
      brokerage: "GULF COAST HOMES LLC",
      brokerLicenseNumber: "9002468",
      brokerEmail: "b@gulf.example",
    });
    expect(sponsorValues({ name: "X REALTY", licenseNumber: "9", email: "", status: "active" })).toEqual({
      brokerage: "X REALTY",
      brokerLicenseNumber: "9",
    });
  });

  it("tells a Texas applicant why a blank field was not filled", () => {
    expect(unfilledBrokerMessage(sponsorOf("0634567"), "brokerage")).toBe(
      "TREC's records show no sponsoring broker for your license. Please enter your broker.",
    );
    expect(unfilledBrokerMessage(sponsorOf("0623456"), "brokerLicenseNumber")).toBe(
      "TREC's records show your sponsoring broker's license as expired. Please enter your current broker.",
    );
    expect(unfilledBrokerMessage(sponsorOf("0656789"), "brokerage")).toBe(
      "Your sponsoring broker's license is not in TREC's records. Please enter your broker.",
    );
    const active = sponsorOf("612345");
    expect(unfilledBrokerMessage(active, "brokerage")).toBeNull();
    expect(unfilledBrokerMessage(active && { ...active, email: "" }, "brokerEmail")).toBe(
      "TREC has no email on file for your broker. Please enter it.",
    );
  });
});

describe("a reload of TREC's data", () => {
  const gulf = sponsorOf("612345");
  const hillCountry = sponsoringBroker(lookup("9004680")!, lookup, TODAY);

  it("moves a broker taken from TREC to a new active sponsor, all three columns", () => {
    expect(sponsorUpdate({ brokerFrom: "trec", brokerLicenseNumber: "9002468" }, hillCountry)).toEqual({
      brokerage: "HILL COUNTRY REALTY LLC",
      brokerLicenseNumber: "9004680",
      brokerEmail: "team@hillcountryrealty.example",
    });
  });

  it("leaves the same sponsor however its number is written, a member's own broker, and a lapsed or missing sponsor", () => {
    expect(sponsorUpdate({ brokerFrom: "trec", brokerLicenseNumber: "09002468" }, gulf)).toBeNull();
    expect(sponsorUpdate({ brokerFrom: "member", brokerLicenseNumber: "9004680" }, gulf)).toBeNull();
    expect(sponsorUpdate({ brokerFrom: undefined, brokerLicenseNumber: "9004680" }, gulf)).toBeNull();
    expect(sponsorUpdate({ brokerFrom: "trec", brokerLicenseNumber: "9002468" }, sponsorOf("0623456"))).toBeNull();
    expect(sponsorUpdate({ brokerFrom: "trec", brokerLicenseNumber: "9002468" }, null)).toBeNull();
  });
});

describe("the profile's broker", () => {
  it("reads Sponsored by NAME (license N) once both are known", () => {
    expect(sponsoredByLine({ brokerage: "Gulf Coast Homes LLC", brokerLicenseNumber: "9002468" })).toBe(
      "Sponsored by Gulf Coast Homes LLC (license 9002468)",
    );
    expect(sponsoredByLine({ brokerage: "Gulf Coast Homes LLC", brokerLicenseNumber: undefined })).toBeNull();
    expect(sponsoredByLine({ brokerage: " ", brokerLicenseNumber: "9002468" })).toBeNull();
  });

  it("asks a member lacking any broker fact to add it", () => {
    const complete = { brokerage: "Gulf Coast Homes LLC", brokerLicenseNumber: "9002468", brokerEmail: "b@gulf.example" };
    expect(lacksBrokerFacts(complete)).toBe(false);
    expect(lacksBrokerFacts({ ...complete, brokerLicenseNumber: undefined })).toBe(true);
    expect(lacksBrokerFacts({ ...complete, brokerEmail: "" })).toBe(true);
    expect(lacksBrokerFacts({ ...complete, brokerage: "" })).toBe(true);
  });
});
