import { describe, expect, it } from "vitest";
import type { TrecLicense } from "../../app/domain/license-check";
import { recheckLicenses, rechecksLicenses, type PartyLicenses } from "../../app/domain/referrals/license-recheck";
import { PIPELINE_STEPS, type PipelineStep } from "../../app/domain/referrals/status";

const TODAY = "2026-11-27";

const active: TrecLicense = {
  licenseNumber: "0654321",
  licenseType: "SALE",
  fullName: "REYES, DANA MARIE",
  suffix: "",
  status: "Current and active",
  expiration: "2027-06-30",
  sponsorName: "LONE STAR REALTY LLC",
  sponsorLicenseNumber: "9001234",
  email: "",
};

const broker: TrecLicense = {
  ...active,
  licenseNumber: "9001234",
  licenseType: "BLLC",
  fullName: "LONE STAR REALTY LLC",
  sponsorName: "",
  sponsorLicenseNumber: "",
};

function texan(fields: Partial<PartyLicenses> = {}): PartyLicenses {
  return {
    name: "Dana Reyes",
    state: "TX",
    licenseNumber: "0654321",
    license: active,
    brokerLicenseNumber: "9001234",
    brokerLicense: broker,
    ...fields,
  };
}

const sooner: PartyLicenses = {
  name: "Maria Delgado",
  state: "OK",
  licenseNumber: "178765",
  license: undefined,
  brokerLicenseNumber: "155",
  brokerLicense: undefined,
};

describe("which steps re-check licenses", () => {
  it("signing, under contract and closed; no other pipeline step", () => {
    const steps = Object.keys(PIPELINE_STEPS) as PipelineStep[];
    expect(["sign", ...steps].filter((step) => rechecksLicenses(step as "sign" | PipelineStep))).toEqual([
      "sign",
      "under_contract",
      "closed",
    ]);
  });
});

describe("what an inactive license means", () => {
  it("passes active Texas licenses (on probation too) without a note", () => {
    expect(recheckLicenses([texan(), texan({ license: { ...active, status: "Probation and active" } })], TODAY)).toEqual({
      ok: true,
      notes: [],
    });
  });

  it.each([
    ["expired by its date", { ...active, expiration: "2026-11-26" }, "expired"],
    ["expired by its status", { ...active, status: "Expired" }, "expired"],
    ["inactive", { ...active, status: "Current and inactive" }, "inactive"],
    ["suspended", { ...active, status: "Suspended" }, "suspended"],
    ["revoked", { ...active, status: "Revoked" }, "revoked"],
  ])("refuses an agent's license %s, naming whose and why", (_, license, word) => {
    const outcome = recheckLicenses([texan({ license }), { ...sooner }], TODAY);
    expect(outcome).toEqual({
      ok: false,
      lapses: [`Dana Reyes's Texas license 0654321 is ${word} in TREC's data`],
      reason: `This step needs active licenses: Dana Reyes's Texas license 0654321 is ${word} in TREC's data. Nothing was changed; try again once TREC shows the license active.`,
    });
  });

  it("counts a license expiring today as active", () => {
    expect(recheckLicenses([texan({ license: { ...active, expiration: TODAY } })], TODAY).ok).toBe(true);
  });

  it("refuses the sponsoring broker's lapsed license, and lists every lapse", () => {
    const outcome = recheckLicenses(
      [
        texan({ brokerLicense: { ...broker, status: "Current and inactive" } }),
        texan({ name: "An Nguyen", licenseNumber: "0699999", license: { ...active, expiration: "2026-11-01" } }),
      ],
      TODAY,
    );
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.lapses).toEqual([
      "Dana Reyes's sponsoring broker's license 9001234 is inactive in TREC's data",
      "An Nguyen's Texas license 0699999 is expired in TREC's data",
    ]);
  });

  it("does not refuse a number TREC's data lacks, but notes it for staff", () => {
    expect(recheckLicenses([texan({ license: undefined, brokerLicense: undefined })], TODAY)).toEqual({
      ok: true,
      notes: [
        "Dana Reyes's Texas license 0654321 is not in TREC's license data: check it at TREC.",
        "Dana Reyes's sponsoring broker's license 9001234 is not in TREC's license data: check it at TREC.",
      ],
    });
  });

  it("checks no broker when the referral row has none", () => {
    expect(recheckLicenses([texan({ brokerLicenseNumber: " ", brokerLicense: undefined })], TODAY)).toEqual({ ok: true, notes: [] });
  });

  it("never refuses an Oklahoma party: staff get OREC's search link for the agent and the broker", () => {
    expect(recheckLicenses([sooner, texan()], TODAY)).toEqual({
      ok: true,
      notes: [
        "Maria Delgado, licensed in Oklahoma: Search license 178765 at https://orec.us/",
        "Maria Delgado's sponsoring broker: Search license 155 at https://orec.us/",
      ],
    });
  });

  it("does not check a license of another state", () => {
    expect(recheckLicenses([{ ...sooner, state: "" }], TODAY)).toEqual({ ok: true, notes: [] });
  });
});
