/**
 * What the pages are sent about invitations: plain data worked out on the server
 * (app/server/invitations), typed here so components need nothing from the server to render it.
 */
import type { BestFitSuggestion } from "./matching/suggestion";
import type { INVITATION_STATUSES } from "./workbook/invitation-tab";

/** One open invitation on the dashboard's "Invited to respond", its times already in words. */
export type InvitationToAnswer = {
  requestId: string;
  title: string;
  posterName: string;
  location: string;
  respondBy: string | null;
  invitedAgo: string;
};

/** Where an invited agent stands, as the poster reads it. */
export type InvitedStanding = Exclude<(typeof INVITATION_STATUSES)[number], "hidden"> | "responded";

/** An agent the poster invited, with where they stand and, after Not a fit, their reason. */
type InvitedAgent = {
  agentId: string;
  profileId: string;
  fullName: string;
  brokerage: string;
  city: string;
  state: string;
  photoUrl: string | null;
  standing: InvitedStanding;
  /** The reason given with Not a fit, when one was. */
  reason: string | undefined;
};

/** A best-fit agent the poster may invite: linked by profile id, never by e-mail. */
type SuggestedAgent = Omit<BestFitSuggestion, "email" | "photoUrl"> & { profileId: string; photoUrl: string | null };

/** The poster's "Best-fit agents" section on their request page. */
export type BestFitSectionView = {
  invited: InvitedAgent[];
  suggestions: SuggestedAgent[];
  /** True when the suggestions are the next five, offered because the deadline passed unanswered. */
  nextRound: boolean;
  live: boolean;
};
