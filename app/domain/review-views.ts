/**
 * What the pages are sent about reviews: plain data worked out on the server
 * (app/server/reviews), typed here so components need nothing from the server to render it.
 */

/** A review as pages show it: stars, the aspects it rated, the text and the reply. */
export type ReviewView = {
  id: string;
  overall: number;
  aspects: { label: string; stars: number }[];
  text: string;
  reply: string | null;
  hidden: boolean;
};

/** A published review on a profile, with when it was published and who wrote it. */
export type ProfileReview = ReviewView & {
  publishedOn: string;
  reviewerName: string;
  /** The reviewer's profile while they are an approved member; null otherwise. */
  reviewerPath: string | null;
  canReport: boolean;
};

/** An ended referral on the dashboard's "Reviews to write". */
export type ReviewToWrite = {
  referralId: string;
  clientName: string;
  otherName: string;
};
