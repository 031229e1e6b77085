import { Link } from "@remix-run/react";
import { reviewPath } from "~/domain/reviews";
import type { ReviewToWrite } from "~/domain/review-views";
import { StarIcon } from "./icons";

/** The dashboard's "Reviews to write": each ended referral still waiting for the member's review, a link to its review page. Shown only when there is one. */
export function DashboardReviewsCard({ reviews }: { reviews: readonly ReviewToWrite[] }) {
  if (reviews.length === 0) return null;
  return (
    <section className="card space-y-4" aria-labelledby="dashboard-reviews-title">
      <h2 id="dashboard-reviews-title" className="flex items-center gap-2 text-lg font-bold text-slate-900">
        <StarIcon className="h-5 w-5 text-brand-700" />
        Reviews to write
      </h2>
      <ul className="divide-y divide-slate-100">
        {reviews.map((review) => (
          <li key={review.referralId} className="py-2 first:pt-0 last:pb-0">
            <Link to={reviewPath(review.referralId)} className="font-semibold wrap-anywhere text-brand-700 hover:underline">
              Review {review.otherName}
            </Link>{" "}
            <span className="text-sm wrap-anywhere text-slate-600">for the referral of {review.clientName}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
