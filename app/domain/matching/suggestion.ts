/** One best-fit agent offered to a request's poster, with the reasons in plain words. */
export type BestFitSuggestion = {
  readonly agentId: string;
  readonly email: string;
  readonly fullName: string;
  readonly brokerage: string;
  readonly city: string;
  readonly state: string;
  readonly photoUrl: string;
  /** Miles from the request's place to the nearest place the agent serves; null when the request's place is unknown. */
  readonly distanceMiles: number | null;
  /** Shown joined by " · ": "Serves Tyler, 12 mi", "Farm and Ranch", "replies in about 2 hours", "3 referrals closed". */
  readonly reasons: readonly string[];
};
