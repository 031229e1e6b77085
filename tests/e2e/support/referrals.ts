import { REFERRAL_EVENTS_TAB, REFERRALS_TAB } from "../../../app/domain/workbook/referral-tabs";
import type { Agent, Referral, ReferralEvent } from "../../../app/domain/workbook/tabs";
import { referralRecord } from "../../support/records";
import { insertRows } from "./store-file";

/**
 * Writes a signed referral between two seeded agents straight into the e2e server's store
 * (with the timeline steps given), as the referral pages would have; the server sees it on
 * its next refresh. Tests set the status and the amounts they look at.
 */
export function seedReferral(
  referring: Agent,
  receiving: Agent,
  fields: Partial<Referral> = {},
  steps: readonly Pick<ReferralEvent, "step" | "createdAt">[] = [],
): Referral {
  const referral = referralRecord(referring, receiving, fields);
  insertRows(REFERRALS_TAB, [referral]);
  insertRows(
    REFERRAL_EVENTS_TAB,
    steps.map((step, i) => ({ id: `${referral.id}-${i}`, referralId: referral.id, byEmail: referring.email, note: "", ...step })),
  );
  return referral;
}
