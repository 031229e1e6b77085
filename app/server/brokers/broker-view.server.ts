/**
 * What a verified broker sees: every referral in which one of the agents they sponsor is
 * a party (that side's broker license is theirs, by `licenseKey`, in the same state), the
 * fees, and the CSV of the fees their office paid or received in a year.
 */
import { type BrokerFee, brokerFeeCsvRows } from "~/domain/brokers";
import { licenseKey } from "~/domain/license-check";
import { feeLabel } from "~/domain/referrals/agreement";
import { shortReference, SIDE_LABELS } from "~/domain/referrals/labels";
import { likelyMistypedFee } from "~/domain/referrals/mistyped-values";
import { formatDollars } from "~/domain/referrals/money";
import { centralYear, knownFeeCents } from "~/domain/referrals/overview";
import { REFERRAL_STATUS_LABELS, type ReferralParty } from "~/domain/referrals/status";
import type { Referral } from "~/domain/workbook/tabs";
import { csvDay, feeReceivedAt, referralTotals } from "../referrals/overview.server";
import type { Services } from "../services.server";
import type { VerifiedBroker } from "./broker-link.server";

type Deps = Pick<Services, "store">;

const PARTIES: readonly ReferralParty[] = ["referring", "receiving"];

function sideOf(referral: Referral, party: ReferralParty) {
  return party === "referring"
    ? {
        agent: referral.referringName,
        email: referral.referringEmail,
        brokerage: referral.referringBrokerage,
        license: referral.referringBrokerLicense,
      }
    : {
        agent: referral.receivingName,
        email: referral.receivingEmail,
        brokerage: referral.receivingBrokerage,
        license: referral.receivingBrokerLicense,
      };
}

/**
 * The sides of a referral this broker sponsors: the side's broker license is theirs and
 * its agent is licensed in the broker's state (Texas and Oklahoma numbers can share digits).
 */
function brokerSides({ store }: Deps, referral: Referral, broker: VerifiedBroker): ReferralParty[] {
  const key = licenseKey(broker.licenseNumber);
  return PARTIES.filter((party) => {
    const side = sideOf(referral, party);
    if (licenseKey(side.license) !== key) return false;
    const agent = store.agents.by("email", side.email)[0];
    return agent === undefined || agent.licenseState === broker.state;
  });
}

/** The broker's referrals, newest first. */
function brokerReferrals(deps: Deps, broker: VerifiedBroker): Referral[] {
  return deps.store.referrals
    .all()
    .filter((referral) => brokerSides(deps, referral, broker).length > 0)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** One of the broker's referrals, or undefined: the documents are served for these only. */
export function brokerReferral(deps: Deps, broker: VerifiedBroker, id: string): Referral | undefined {
  const referral = deps.store.referrals.get(id);
  return referral && brokerSides(deps, referral, broker).length > 0 ? referral : undefined;
}

function money(cents: number | undefined): string | null {
  return cents === undefined ? null : formatDollars(cents);
}

/** The broker's page: each referral's parties, status and fee, and the totals. */
export function brokerView(deps: Deps, broker: VerifiedBroker, now: Date) {
  const referrals = brokerReferrals(deps, broker);
  return {
    licenseNumber: broker.licenseNumber,
    brokerName: broker.name,
    totals: referralTotals(deps, referrals, now),
    referrals: referrals.map((referral) => {
      const receivedAt = feeReceivedAt(deps, referral);
      return {
        id: referral.id,
        reference: shortReference(referral.id),
        statusLabel: REFERRAL_STATUS_LABELS[referral.status],
        yours: brokerSides(deps, referral, broker),
        referring: sideOf(referral, "referring"),
        receiving: sideOf(referral, "receiving"),
        clientName: referral.clientName,
        sideLabel: SIDE_LABELS[referral.side],
        feeLabel: feeLabel(referral),
        feeAmount: money(knownFeeCents(referral)),
        feeDoubted: likelyMistypedFee(referral) !== null,
        receivedOn: receivedAt?.slice(0, 10) ?? null,
        hasCda: referral.cdaSentAt !== undefined,
      };
    }),
  };
}

/** When the fee was paid: the last "fee_paid" step, else its receipt (staff may skip the step in the sheet). */
function feePaidAt({ store }: Deps, referral: Referral): string | undefined {
  const paid = store.referralEvents
    .by("referralId", referral.id)
    .filter((event) => event.step === "fee_paid")
    .map((event) => event.createdAt)
    .sort()
    .at(-1);
  return paid ?? feeReceivedAt({ store }, referral);
}

/** The CSV's rows for one calendar year (Central time): each fee the broker's office paid or received in it. */
export function brokerFeeCsv(deps: Deps, broker: VerifiedBroker, year: number): string[][] {
  const fees: BrokerFee[] = [];
  for (const referral of brokerReferrals(deps, broker)) {
    if (referral.status !== "fee_paid" && referral.status !== "fee_received") continue;
    const paidAt = feePaidAt(deps, referral);
    if (paidAt === undefined || centralYear(paidAt) !== year) continue;
    for (const party of brokerSides(deps, referral, broker)) {
      const other = sideOf(referral, party === "referring" ? "receiving" : "referring");
      fees.push({
        direction: party === "referring" ? "Received" : "Paid",
        paidOn: csvDay(paidAt),
        receivedOn: csvDay(feeReceivedAt(deps, referral)),
        reference: shortReference(referral.id),
        otherBroker: other.brokerage,
        otherBrokerLicense: other.license,
        referringAgent: referral.referringName,
        receivingAgent: referral.receivingName,
        clientName: referral.clientName,
        amountCents: knownFeeCents(referral),
      });
    }
  }
  return brokerFeeCsvRows(fees);
}
