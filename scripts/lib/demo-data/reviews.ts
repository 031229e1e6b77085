/**
 * The demo's reviews: each party's review of the other on the deals that ended, as data.
 * The demo login (Maria Delgado) has both reviews published on two deals (with her reply to
 * one), her own review waiting for the other party on the expired deal, and a review still
 * to write on the lost one (no row here); two other agents reviewed each other too.
 */
import type { ReferralParty } from "~/domain/referrals/status";

export type ReviewSeed = {
  /** The deal's key in deals.ts. */
  deal: string;
  /** The party who writes it; they review the other. */
  by: ReferralParty;
  daysAgo: number;
  overall: number;
  communication: number;
  clientCare: number;
  /** How the fee was handled (a review of the receiving side) or the referral's quality (of the referring side). */
  sideAspect: number;
  text: string;
  reply?: { daysAgo: number; text: string };
};

export const REVIEWS: readonly ReviewSeed[] = [
  {
    deal: "san-antonio-rental",
    by: "referring",
    daysAgo: 55,
    overall: 5,
    communication: 5,
    clientCare: 5,
    sideAspect: 5,
    text: "Carlos called my clients the day I introduced them and found them a rental within two weeks. The fee arrived a week after closing, exactly as agreed.",
  },
  {
    deal: "san-antonio-rental",
    by: "receiving",
    daysAgo: 52,
    overall: 4,
    communication: 4,
    clientCare: 5,
    sideAspect: 4,
    text: "Well-prepared clients who knew what they wanted. Maria took a couple of days to answer once or twice, but the hand-off was smooth.",
    reply: { daysAgo: 50, text: "Thank you, Carlos. Fair point on the slow replies during the holidays; glad the hand-off worked." },
  },
  {
    deal: "okc-family",
    by: "referring",
    daysAgo: 80,
    overall: 5,
    communication: 5,
    clientCare: 4,
    sideAspect: 5,
    text: "Maria kept my clients informed through a long search and paid the referral fee on time.",
  },
  {
    deal: "okc-family",
    by: "receiving",
    daysAgo: 78,
    overall: 5,
    communication: 5,
    clientCare: 5,
    sideAspect: 5,
    text: "Sarah's notes on the clients saved me a week. A model referral.",
  },
  {
    deal: "el-paso-relocation",
    by: "referring",
    daysAgo: 2,
    overall: 3,
    communication: 3,
    clientCare: 4,
    sideAspect: 3,
    text: "Luis worked hard in a tough market, though updates slowed down toward the end of the term.",
  },
  {
    deal: "enid-wheat",
    by: "referring",
    daysAgo: 40,
    overall: 5,
    communication: 5,
    clientCare: 5,
    sideAspect: 5,
    text: "Roy handled a rural sale with patience and paid the fee without a reminder.",
  },
  {
    deal: "enid-wheat",
    by: "receiving",
    daysAgo: 38,
    overall: 4,
    communication: 4,
    clientCare: 4,
    sideAspect: 4,
    text: "A serious seller and clear terms. Thanks, Wade.",
  },
];
