import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { reportPath } from "~/domain/moderation";
import type { ProfileReview, ReviewView } from "~/domain/review-views";

function StarGlyphs({ stars }: { stars: number }) {
  return (
    <>
      <span className="text-amber-600">{"★".repeat(stars)}</span>
      <span className="text-slate-400">{"★".repeat(5 - stars)}</span>
    </>
  );
}

/** A rating shown as five stars, read as "4 out of 5 stars". */
function Stars({ stars, className = "text-lg" }: { stars: number; className?: string }) {
  return (
    <span role="img" aria-label={`${stars} out of 5 stars`} className={`tracking-wider whitespace-nowrap ${className}`}>
      <StarGlyphs stars={stars} />
    </span>
  );
}

/** The overall rating: the stars for the eye and "4 out of 5" in words beside them, which screen readers read once. */
function OverallStars({ stars }: { stars: number }) {
  return (
    <p className="flex items-center gap-3">
      <span aria-hidden="true" className="text-2xl tracking-wider whitespace-nowrap">
        <StarGlyphs stars={stars} />
      </span>
      <span className="font-semibold text-slate-900">{stars} out of 5</span>
    </p>
  );
}

/** One review: the overall stars, each aspect's, the text, and the reviewed member's reply. */
export function ReviewBody({ review, replyBy, children }: { review: ReviewView; replyBy: string; children?: ReactNode }) {
  return (
    <div className="space-y-3">
      <OverallStars stars={review.overall} />
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        {review.aspects.map((aspect) => (
          <div key={aspect.label}>
            <dt className="text-slate-600">{aspect.label}</dt>
            <dd>
              <Stars stars={aspect.stars} className="text-base" />
            </dd>
          </div>
        ))}
      </dl>
      {review.text ? <p className="leading-relaxed wrap-anywhere whitespace-pre-line text-slate-800">{review.text}</p> : null}
      {review.reply !== null ? (
        <div className="rounded-lg border-l-4 border-brand-600 bg-slate-50 px-4 py-3 text-sm">
          <p className="font-semibold text-slate-900">Reply from {replyBy}</p>
          <p className="mt-1 leading-relaxed wrap-anywhere whitespace-pre-line text-slate-700">{review.reply}</p>
        </div>
      ) : null}
      {children}
    </div>
  );
}

/** The published reviews of a member on their profile, newest first, each with its reviewer and the reply. */
export function ReviewList({ reviews, agentName }: { reviews: readonly ProfileReview[]; agentName: string }) {
  return (
    <section className="card space-y-4" aria-labelledby="reviews-title">
      <h2 id="reviews-title" className="text-lg font-bold text-slate-900">
        Reviews
      </h2>
      {reviews.length === 0 ? (
        <p className="text-slate-600">No published reviews yet. Reviews come from the other agent of a referral once it ends.</p>
      ) : (
        <ol className="divide-y divide-slate-100">
          {reviews.map((review) => (
            <li key={review.id} className="space-y-2 py-4 first:pt-0 last:pb-0" data-testid="profile-review">
              <p className="text-sm text-slate-600">
                {review.reviewerPath ? (
                  <Link to={review.reviewerPath} className="font-semibold text-brand-700 hover:underline">
                    {review.reviewerName}
                  </Link>
                ) : (
                  <span className="font-semibold text-slate-900">{review.reviewerName}</span>
                )}{" "}
                · <time dateTime={review.publishedOn}>{review.publishedOn}</time>
              </p>
              <ReviewBody review={review} replyBy={agentName}>
                {review.canReport ? (
                  <Link to={reportPath("review", review.id)} className="text-sm font-semibold text-red-700 hover:underline">
                    Report review
                  </Link>
                ) : null}
              </ReviewBody>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
