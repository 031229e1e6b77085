/**
 * The demo's broker side: a commission disbursement authorization on the first referral
 * under contract (title company, its timeline row), and an Oklahoma broker staff
 * confirmed in the Brokers tab, so the broker's view can be tried with an OREC license.
 */
import type { Agent, Broker, Referral, ReferralEvent } from "~/domain/workbook/tabs";
import { clockAt, demoId } from "./demo-kit";

type Deals = { referrals: Referral[]; referralEvents: ReferralEvent[] };

const TITLE_COMPANY = { titleCompany: "Alamo Title Company", titleEmail: "closer@alamotitle.demo.example" };

/** The first referral under contract gets its CDA two days ago, sent by the receiving agent. */
function withCda<D extends Deals>(deals: D, now: Date): D {
  const target = deals.referrals.find((referral) => referral.status === "under_contract");
  if (!target) throw new Error("The demo network has no referral under contract for a CDA");
  const sentAt = clockAt(now).daysAgo(2);
  const referral: Referral = { ...target, ...TITLE_COMPANY, cdaSentAt: sentAt, updatedAt: sentAt };
  const closing = target.expectedCloseDate?.slice(0, 10) ?? "";
  const event: ReferralEvent = {
    id: demoId(`referral-event:cda:${target.id}`),
    referralId: target.id,
    step: "cda",
    byEmail: target.receivingEmail,
    note: `Commission disbursement authorization for ${TITLE_COMPANY.titleCompany} <${TITLE_COMPANY.titleEmail}>, expected closing ${closing}, sent to both brokers.`,
    createdAt: sentAt,
  };
  return {
    ...deals,
    referrals: deals.referrals.map((row) => (row.id === target.id ? referral : row)),
    referralEvents: [...deals.referralEvents, event],
  };
}

/** The broker of the first Oklahoma agent, confirmed by staff a month ago. */
function confirmedOklahomaBroker(agents: readonly Agent[], now: Date): Broker {
  const agent = agents.find((candidate) => candidate.licenseState === "OK" && candidate.brokerLicenseNumber && candidate.brokerEmail);
  if (!agent?.brokerLicenseNumber || !agent.brokerEmail) throw new Error("The demo network has no Oklahoma agent with a broker");
  const clock = clockAt(now);
  return {
    id: demoId(`broker:${agent.brokerLicenseNumber}`),
    licenseNumber: agent.brokerLicenseNumber,
    state: "OK",
    name: agent.brokerage,
    email: agent.brokerEmail,
    status: "confirmed",
    staffNote: "License checked on OREC's search.",
    createdAt: clock.daysAgo(31),
    updatedAt: clock.daysAgo(30),
  };
}

export function withDemoBrokers<D extends Deals>(deals: D, now: Date, agents: readonly Agent[]): D & { brokers: Broker[] } {
  return { ...withCda(deals, now), brokers: [confirmedOklahomaBroker(agents, now)] };
}
