/**
 * The demo's referral deals, each as the story of its steps: one in each status for the
 * demo login, and others between demo agents.
 */
import type { ReferralSide } from "~/domain/referrals/labels";
import type { ReferralParty } from "~/domain/referrals/status";

/** The request's poster or the agent who responded to it. */
type Side = "poster" | "responder";

/** One thing that happened to a deal, `daysAgo` before the seed's `now`. */
export type DealStep =
  /** The agent signs and attests for their broker, or (`askBroker`) asks the broker to approve by mail. */
  | { step: "sign"; by: ReferralParty; daysAgo: number; askBroker?: true }
  /** The broker asked by a side approves through the mailed link, typing their name. */
  | { step: "broker-approved"; side: ReferralParty; daysAgo: number; approverName: string }
  | { step: "declined" | "withdrawn"; daysAgo: number; note: string }
  | { step: "introduced" | "fee_paid" | "fee_received"; daysAgo: number; note?: string }
  /** The expected closing is `closesInDays` after `now`. */
  | { step: "under_contract"; daysAgo: number; closesInDays: number; note?: string }
  | { step: "closed"; daysAgo: number; salePrice: string; grossCommission: string; note?: string }
  | { step: "lost"; by: ReferralParty; daysAgo: number; reason: string; note?: string }
  /** The app's own step, a few minutes after the term ended. */
  | { step: "expired" };

export type DealSeed = {
  key: string;
  request: string;
  responder: string;
  proposedBy: Side;
  referrer: Side;
  clientName: string;
  side?: ReferralSide;
  /** The fee: a percentage ("25") or a flat amount ("2,500.00"); the form's default percentage otherwise. */
  feePercent?: string;
  feeFlat?: string;
  termMonths?: number;
  terms?: string;
  proposedDaysAgo: number;
  steps: readonly DealStep[];
};

export const DEALS: readonly DealSeed[] = [
  // The demo login's: one in each status.
  {
    key: "okc-tinker-sarah",
    request: "okc-relocation",
    responder: "Sarah Whitlock",
    proposedBy: "responder",
    referrer: "poster",
    clientName: "Dana",
    proposedDaysAgo: 2.1,
    steps: [
      { step: "sign", by: "referring", daysAgo: 1.9 },
      { step: "sign", by: "receiving", daysAgo: 1.7 },
    ],
  },
  {
    key: "okc-tinker-nathan",
    request: "okc-relocation",
    responder: "Nathan Price",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Dana",
    proposedDaysAgo: 2.15,
    steps: [
      {
        step: "withdrawn",
        daysAgo: 2.05,
        note: "My clients chose an agent who shows homes in Moore every week. Thank you for the quick reply!",
      },
    ],
  },
  {
    key: "lake-highlands-grace",
    request: "lake-highlands-listing",
    responder: "Grace Nguyen",
    proposedBy: "responder",
    referrer: "responder",
    clientName: "Kevin",
    feePercent: "20",
    termMonths: 6,
    terms: "Covers the purchase of 4182 Blue Sage Dr only.",
    proposedDaysAgo: 0.6,
    // Waiting for the referring broker's approval (its link still works) and the receiving agent's signature.
    steps: [{ step: "sign", by: "referring", daysAgo: 0.58, askBroker: true }],
  },
  {
    key: "north-dallas-jumbo",
    request: "houston-jumbo-to-north-dallas",
    responder: "Maria Delgado",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Greg",
    proposedDaysAgo: 5,
    steps: [
      { step: "sign", by: "referring", daysAgo: 5 },
      { step: "sign", by: "receiving", daysAgo: 4.8 },
      { step: "introduced", daysAgo: 4, note: "Introduced by e-mail; they fly in next weekend." },
    ],
  },
  {
    key: "plano-engineer",
    request: "houston-engineer-to-plano",
    responder: "Maria Delgado",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "R.K.",
    proposedDaysAgo: 44,
    steps: [
      { step: "sign", by: "referring", daysAgo: 44 },
      { step: "sign", by: "receiving", daysAgo: 43.6 },
      { step: "introduced", daysAgo: 43, note: "Introduced by e-mail; they tour the weekend of the 14th." },
      { step: "under_contract", daysAgo: 12, closesInDays: 18, note: "Option period ends Friday." },
    ],
  },
  {
    key: "austin-sellers",
    request: "austin-sellers-to-dallas",
    responder: "Maria Delgado",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Ben",
    proposedDaysAgo: 69,
    steps: [
      { step: "sign", by: "referring", daysAgo: 69 },
      { step: "sign", by: "receiving", daysAgo: 68.5 },
      { step: "introduced", daysAgo: 68 },
      { step: "under_contract", daysAgo: 40, closesInDays: -9 },
      { step: "closed", daysAgo: 8, salePrice: "485,000.00", grossCommission: "14,550.00", note: "Funded at Lakewood Title." },
    ],
  },
  {
    key: "tulsa-retirees",
    request: "dallas-retirees-to-tulsa",
    responder: "Travis Colbert",
    proposedBy: "responder",
    referrer: "poster",
    clientName: "Ruth",
    feePercent: "30",
    proposedDaysAgo: 94,
    steps: [
      { step: "sign", by: "receiving", daysAgo: 94 },
      { step: "sign", by: "referring", daysAgo: 93.5 },
      { step: "introduced", daysAgo: 93 },
      { step: "under_contract", daysAgo: 60, closesInDays: -30 },
      { step: "closed", daysAgo: 35, salePrice: "310,000.00", grossCommission: "9,300.00" },
      { step: "fee_paid", daysAgo: 25, note: "Check mailed from my broker to yours." },
    ],
  },
  {
    key: "san-antonio-rental",
    request: "dallas-investor-san-antonio",
    responder: "Carlos Benavides",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Luis",
    feeFlat: "2,500.00",
    proposedDaysAgo: 129,
    steps: [
      { step: "sign", by: "referring", daysAgo: 129 },
      { step: "sign", by: "receiving", daysAgo: 128.8 },
      { step: "introduced", daysAgo: 128 },
      { step: "under_contract", daysAgo: 100, closesInDays: -75 },
      { step: "closed", daysAgo: 75, salePrice: "265,000.00", grossCommission: "7,950.00" },
      { step: "fee_paid", daysAgo: 68 },
      { step: "fee_received", daysAgo: 60, note: "Received by our broker. Thanks, Carlos!" },
    ],
  },
  {
    key: "okc-family",
    request: "okc-family-to-dallas",
    responder: "Maria Delgado",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "T.J.",
    proposedDaysAgo: 159,
    steps: [
      { step: "sign", by: "referring", daysAgo: 159 },
      { step: "sign", by: "receiving", daysAgo: 158.7 },
      { step: "introduced", daysAgo: 158 },
      { step: "under_contract", daysAgo: 130, closesInDays: -100 },
      { step: "closed", daysAgo: 100, salePrice: "540,000.00", grossCommission: "16,200.00" },
      { step: "fee_paid", daysAgo: 92 },
      { step: "fee_received", daysAgo: 88 },
    ],
  },
  {
    key: "norman-condo",
    request: "norman-condo-for-student",
    responder: "Emily Chen",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Pat",
    proposedDaysAgo: 84,
    steps: [
      { step: "sign", by: "referring", daysAgo: 84 },
      { step: "sign", by: "receiving", daysAgo: 83.8 },
      { step: "introduced", daysAgo: 83 },
      {
        step: "lost",
        by: "receiving",
        daysAgo: 20,
        reason: "The parents decided to rent for another year.",
        note: "They may buy next spring.",
      },
    ],
  },
  {
    key: "el-paso-relocation",
    request: "dallas-to-el-paso",
    responder: "Luis Ortega",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Marisol",
    termMonths: 3,
    proposedDaysAgo: 148,
    steps: [
      { step: "sign", by: "referring", daysAgo: 148 },
      { step: "sign", by: "receiving", daysAgo: 147 },
      { step: "introduced", daysAgo: 146 },
      { step: "expired" },
    ],
  },
  {
    key: "edmond-luxury",
    request: "dallas-seller-to-edmond",
    responder: "Garrett Pierce",
    proposedBy: "responder",
    referrer: "poster",
    clientName: "Ann",
    feePercent: "15",
    proposedDaysAgo: 49,
    steps: [{ step: "declined", daysAgo: 48.5, note: "I keep to 25% on relocation referrals; happy to talk again." }],
  },
  // Between other agents.
  {
    key: "fort-sill-jesse",
    request: "fort-sill-pcs",
    responder: "Jesse Ramirez",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Mike",
    proposedDaysAgo: 0.8,
    steps: [
      { step: "sign", by: "referring", daysAgo: 0.8 },
      { step: "sign", by: "receiving", daysAgo: 0.7 },
      { step: "introduced", daysAgo: 0.4 },
    ],
  },
  {
    key: "norman-seller-emily",
    request: "norman-seller",
    responder: "Emily Chen",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Chris",
    proposedDaysAgo: 8,
    // In force once the receiving broker approved by link.
    steps: [
      { step: "sign", by: "referring", daysAgo: 8 },
      { step: "sign", by: "receiving", daysAgo: 7.5, askBroker: true },
      { step: "broker-approved", side: "receiving", daysAgo: 7.2, approverName: "John Smith" },
    ],
  },
  {
    key: "frisco-derek",
    request: "ba-to-frisco",
    responder: "Derek Lindqvist",
    proposedBy: "responder",
    referrer: "poster",
    clientName: "Jen",
    feePercent: "20",
    proposedDaysAgo: 7,
    steps: [{ step: "sign", by: "receiving", daysAgo: 7 }],
  },
  {
    key: "enid-wheat",
    request: "amarillo-to-enid-wheat",
    responder: "Roy Dunham",
    proposedBy: "poster",
    referrer: "poster",
    clientName: "Earl",
    feeFlat: "5,000.00",
    proposedDaysAgo: 108,
    steps: [
      { step: "sign", by: "referring", daysAgo: 108 },
      { step: "sign", by: "receiving", daysAgo: 107 },
      { step: "introduced", daysAgo: 106 },
      { step: "under_contract", daysAgo: 80, closesInDays: -50 },
      { step: "closed", daysAgo: 50, salePrice: "1,120,000.00", grossCommission: "33,600.00" },
      { step: "fee_paid", daysAgo: 45 },
      { step: "fee_received", daysAgo: 44 },
    ],
  },
];

// ---------------------------------------------------------------------------
// Building a deal as the app would have

/** Where the demo's signatures came from: addresses kept for documentation, everyday browsers. */
export const SIGNING_IPS = ["192.0.2.14", "198.51.100.27", "203.0.113.52", "192.0.2.88", "198.51.100.140"];
export const SIGNING_AGENTS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
];
