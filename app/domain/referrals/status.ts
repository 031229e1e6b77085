/**
 * A referral's life: proposed, then signed (in force: both agents signed and both brokers
 * signed off), then the pipeline to the paid fee, or an end on the way. Each step belongs to one party (or either); the app
 * refuses a step taken out of order or by the other party. Staff may set any status in
 * the workbook; the app follows it from the next refresh.
 */

export const REFERRAL_STATUSES = [
  "proposed",
  "declined",
  "withdrawn",
  "signed",
  "introduced",
  "under_contract",
  "closed",
  "fee_paid",
  "fee_received",
  "lost",
  "expired",
] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

export const REFERRAL_STATUS_LABELS: Record<ReferralStatus, string> = {
  proposed: "Proposed",
  declined: "Declined",
  withdrawn: "Withdrawn",
  signed: "Signed",
  introduced: "Client introduced",
  under_contract: "Under contract",
  closed: "Closed",
  fee_paid: "Fee paid",
  fee_received: "Fee received",
  lost: "Lost",
  expired: "Expired",
};

/** The two sides of an agreement: the agent with the client refers, the other receives. */
export type ReferralParty = "referring" | "receiving";

/** Statuses after which nothing more happens. */
const FINAL_STATUSES: ReadonlySet<ReferralStatus> = new Set(["declined", "withdrawn", "fee_received", "lost", "expired"]);

export function isFinalStatus(status: ReferralStatus): boolean {
  return FINAL_STATUSES.has(status);
}

/** Statuses of a signed agreement whose deal has not closed yet: the term can still run out. */
export const OPEN_PIPELINE_STATUSES: readonly ReferralStatus[] = ["signed", "introduced", "under_contract"];

/**
 * The pipeline steps a party takes by hand, from which status, and whose step it is.
 * Signing, declining and withdrawing happen before the agreement is signed and are
 * handled with the acceptances; expiry is the app's own step when the term passes.
 */
export const PIPELINE_STEPS = {
  introduced: { from: ["signed"], by: "referring" },
  under_contract: { from: ["introduced"], by: "receiving" },
  closed: { from: ["under_contract"], by: "receiving" },
  fee_paid: { from: ["closed"], by: "receiving" },
  fee_received: { from: ["fee_paid"], by: "referring" },
  lost: { from: OPEN_PIPELINE_STATUSES, by: "either" },
} as const satisfies Record<string, { from: readonly ReferralStatus[]; by: ReferralParty | "either" }>;
export type PipelineStep = keyof typeof PIPELINE_STEPS;

export type StepRefusal = "out-of-order" | "wrong-party";

/** Whether `party` may take `step` from `status`; the reason when not. */
export function checkStep(
  status: ReferralStatus,
  step: PipelineStep,
  party: ReferralParty,
): { ok: true } | { ok: false; reason: StepRefusal } {
  const rule = PIPELINE_STEPS[step];
  if (!(rule.from as readonly ReferralStatus[]).includes(status)) return { ok: false, reason: "out-of-order" };
  if (rule.by !== "either" && rule.by !== party) return { ok: false, reason: "wrong-party" };
  return { ok: true };
}

/** The next steps `party` can take from `status`, in pipeline order. */
export function nextSteps(status: ReferralStatus, party: ReferralParty): PipelineStep[] {
  return (Object.keys(PIPELINE_STEPS) as PipelineStep[]).filter((step) => checkStep(status, step, party).ok);
}
