import { describe, expect, it } from "vitest";
import {
  checkStep,
  isFinalStatus,
  nextSteps,
  OPEN_PIPELINE_STATUSES,
  PIPELINE_STEPS,
  REFERRAL_STATUS_LABELS,
  REFERRAL_STATUSES,
  type PipelineStep,
  type ReferralParty,
  type ReferralStatus,
} from "../../app/domain/referrals/status";

const PARTIES: readonly ReferralParty[] = ["referring", "receiving"];
const STEPS = Object.keys(PIPELINE_STEPS) as PipelineStep[];

/**
 * The pipeline written out by hand, from docs/product.md#referral-agreements: each step, the statuses it may be
 * taken from and the party whose step it is. Every cell of status × step × party is
 * checked against it, so a rule added, dropped or moved shows up here.
 */
const ALLOWED: Record<PipelineStep, { from: readonly ReferralStatus[]; by: readonly ReferralParty[] }> = {
  introduced: { from: ["signed"], by: ["referring"] },
  under_contract: { from: ["introduced"], by: ["receiving"] },
  closed: { from: ["under_contract"], by: ["receiving"] },
  fee_paid: { from: ["closed"], by: ["receiving"] },
  fee_received: { from: ["fee_paid"], by: ["referring"] },
  lost: { from: ["signed", "introduced", "under_contract"], by: ["referring", "receiving"] },
};

describe("checkStep", () => {
  for (const status of REFERRAL_STATUSES)
    for (const step of STEPS)
      for (const party of PARTIES) {
        const rule = ALLOWED[step];
        const expected = !rule.from.includes(status)
          ? { ok: false, reason: "out-of-order" }
          : rule.by.includes(party)
            ? { ok: true }
            : { ok: false, reason: "wrong-party" };
        it(`${party} taking "${step}" from "${status}": ${expected.ok ? "allowed" : expected.reason}`, () => {
          expect(checkStep(status, step, party)).toEqual(expected);
        });
      }

  it("says out of order before wrong party: a step from the wrong status is refused as out of order whoever takes it", () => {
    expect(checkStep("signed", "closed", "referring")).toEqual({ ok: false, reason: "out-of-order" });
  });
});

describe("nextSteps", () => {
  const cases: [ReferralStatus, ReferralParty, PipelineStep[]][] = [
    ["proposed", "referring", []],
    ["proposed", "receiving", []],
    ["signed", "referring", ["introduced", "lost"]],
    ["signed", "receiving", ["lost"]],
    ["introduced", "referring", ["lost"]],
    ["introduced", "receiving", ["under_contract", "lost"]],
    ["under_contract", "referring", ["lost"]],
    ["under_contract", "receiving", ["closed", "lost"]],
    ["closed", "referring", []],
    ["closed", "receiving", ["fee_paid"]],
    ["fee_paid", "referring", ["fee_received"]],
    ["fee_paid", "receiving", []],
  ];
  for (const [status, party, steps] of cases)
    it(`${party} from "${status}": ${steps.join(", ") || "nothing"}`, () => {
      expect(nextSteps(status, party)).toEqual(steps);
    });

  it("offers nothing to either party once a referral has ended", () => {
    for (const status of REFERRAL_STATUSES.filter(isFinalStatus)) for (const party of PARTIES) expect(nextSteps(status, party)).toEqual([]);
  });
});

describe("final and open statuses", () => {
  it("ends at declined, withdrawn, fee received, lost and expired, and nowhere else", () => {
    expect(REFERRAL_STATUSES.filter(isFinalStatus)).toEqual(["declined", "withdrawn", "fee_received", "lost", "expired"]);
  });

  it("counts signed, introduced and under contract as the pipeline whose term can run out", () => {
    expect(OPEN_PIPELINE_STATUSES).toEqual(["signed", "introduced", "under_contract"]);
    for (const status of OPEN_PIPELINE_STATUSES) expect(isFinalStatus(status)).toBe(false);
  });

  it("has a label for every status, the values staff may type in the sheet", () => {
    expect(Object.keys(REFERRAL_STATUS_LABELS).sort()).toEqual([...REFERRAL_STATUSES].sort());
  });
});
