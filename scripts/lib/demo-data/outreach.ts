/**
 * The demo login's invitations to join the network, one in each state the /invite page
 * shows (sent, opened, registered, approved, expired) and one reminded, plus the invitation
 * to her Alpine request that brought in the agent who answered it. An invitee who joined
 * is named by their agent seed (demo-data/agents.ts); the others are people only here.
 * Times are days before the seed's `now`.
 */
import type { MarketState } from "~/domain/enums";
import type { SuppressionReason } from "~/domain/workbook/suppression-tab";

export type OutreachSeed = {
  name: string;
  licenseNumber?: string;
  licenseState?: MarketState;
  note?: string;
  /** The key of the demo login's request the invitee was asked to take. */
  request?: string;
  daysAgo: number;
  openedDaysAgo?: number;
  remindedDaysAgo?: number;
  /** The invitee registered: they are a demo agent of this name. */
  joined?: true;
};

export const OUTREACH: readonly OutreachSeed[] = [
  { name: "Tom Gallagher", licenseNumber: "0712486", licenseState: "TX", daysAgo: 2 },
  {
    name: "Lena Marsh",
    licenseState: "OK",
    note: "Lena, this is the network I told you about at the Tulsa conference.",
    daysAgo: 5,
    openedDaysAgo: 4,
  },
  { name: "Victor Okafor", licenseState: "TX", daysAgo: 13, remindedDaysAgo: 4 },
  {
    name: "Monica Ferrell",
    licenseState: "TX",
    note: "We should trade East Texas referrals.",
    daysAgo: 12,
    openedDaysAgo: 10,
    joined: true,
  },
  { name: "Dana Whitcomb", licenseState: "TX", daysAgo: 24, openedDaysAgo: 22, joined: true },
  { name: "Gary Lindholm", licenseNumber: "0598310", licenseState: "TX", daysAgo: 45 },
  {
    name: "Rosa Espinoza",
    licenseNumber: "0688215",
    licenseState: "TX",
    note: "My buyers want ranch land near you. Would you take them?",
    request: "alpine-ranch",
    daysAgo: 17.5,
    openedDaysAgo: 17,
    joined: true,
  },
];

/** Addresses never invited again: one person's own request and one the mail provider bounced. */
export const SUPPRESSIONS: readonly { name: string; reason: SuppressionReason; note: string; daysAgo: number }[] = [
  { name: "Pat Quinlan", reason: "asked", note: "Asked through the invitation's link", daysAgo: 60 },
  { name: "Doug Ferris", reason: "bounce", note: "Mail provider: mailbox does not exist", daysAgo: 33 },
];
