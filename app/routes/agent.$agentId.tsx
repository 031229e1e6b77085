import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AgentAvatar } from "~/components/agent-avatar";
import { MembershipTypeLabel, VerifiedBadge } from "~/components/agent-badges";
import { AgentSpecialtyList } from "~/components/agent-specialty-list";
import { BlockButton } from "~/components/block-button";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorPanel } from "~/components/error-screens";
import { TrackRecordCard } from "~/components/track-record-card";
import { ChatIcon, MailIcon, MapPinIcon, PhoneIcon, UsersIcon } from "~/components/icons";
import { ReviewList } from "~/components/review-list";
import { AGENT_NOT_FOUND, agentProfilePath, INDEPENDENT_AGENT, messageAgentPath, NO_BIO } from "~/domain/directory-cards";
import { locationLabel, photoSource } from "~/domain/member-profile";
import { reportPath } from "~/domain/moderation";
import { formatPhoneForDisplay } from "~/domain/phone";
import { PRODUCT_NAME } from "~/domain/product";
import { requireMember } from "~/server/auth/session.server";
import { findDirectoryAgent } from "~/server/directory/directory.server";
import { notFound } from "~/server/http.server";
import { hasBlocked } from "~/server/moderation/blocks.server";
import { isBlockedBetween } from "~/server/moderation/visibility.server";
import { profileTrackRecord } from "~/server/track-record/track-records.server";
import { profileReviews } from "~/server/reviews/reviews.server";
import { servedPlacesText } from "~/domain/places/served-text";
import { sponsoredByLine } from "~/domain/sponsor";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.profile.fullName} | ${PRODUCT_NAME}` : `Agent Not Found | ${PRODUCT_NAME}` },
];

/**
 * Members only. The id may be any form of docs/product.md#agent-ids: the canonical one shows
 * the profile, the others redirect to it (a temporary redirect: the canonical id
 * follows the e-mail, which can change). Only approved agents have a profile.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const match = findDirectoryAgent(context.services, params.agentId ?? "");
  if (!match) throw notFound(AGENT_NOT_FOUND);
  if (!match.isCanonical) throw redirect(agentProfilePath(match.canonicalId));
  const { agent, canonicalId } = match;
  return {
    profile: {
      agentId: canonicalId,
      fullName: agent.fullName,
      brokerage: agent.brokerage,
      sponsoredBy: sponsoredByLine(agent),
      city: agent.city,
      state: agent.state,
      membershipType: agent.membershipType,
      bio: agent.bio,
      specialties: [...agent.specialties],
      served: servedPlacesText(agent.placesServed, agent.serviceRadius),
      email: agent.email,
      phone: formatPhoneForDisplay(agent.phone),
      photoUrl: photoSource(agent.photoUrl),
    },
    isOwnProfile: agent.id === member.id,
    /** The row id the block form names. */
    rowId: agent.id,
    blockedByMe: hasBlocked(context.services, member, agent),
    /** Either blocked the other: no Send Message. */
    blocked: isBlockedBetween(context.services, member, agent),
    trackRecord: profileTrackRecord(context.services, agent.email),
    reviews: profileReviews(context.services, agent, member, new Date()),
  };
}

export default function AgentProfile() {
  const { profile, isOwnProfile, rowId, blockedByMe, blocked, trackRecord, reviews } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
      <BackToDirectory />
      <article className="mt-6 space-y-6" aria-labelledby="agent-name">
        <header className="card flex flex-col gap-6 sm:flex-row sm:items-center">
          <AgentAvatar fullName={profile.fullName} photoUrl={profile.photoUrl} size="lg" />
          <div className="min-w-0 flex-1">
            <h1 id="agent-name" className="text-3xl font-extrabold tracking-tight wrap-anywhere text-slate-900">
              {profile.fullName}
            </h1>
            <p className="mt-1 text-lg font-medium wrap-anywhere text-slate-700">{profile.brokerage.trim() || INDEPENDENT_AGENT}</p>
            {profile.sponsoredBy ? <p className="mt-1 text-sm wrap-anywhere text-slate-600">{profile.sponsoredBy}</p> : null}
            <p className="mt-1 flex items-center gap-1.5 text-slate-600">
              <MapPinIcon className="h-4 w-4 shrink-0" />
              {locationLabel(profile.city, profile.state)}
            </p>
            {profile.served ? <p className="mt-1 wrap-anywhere text-slate-600">{profile.served}</p> : null}
            <div className="mt-3 flex flex-wrap items-center gap-2">
              <MembershipTypeLabel membershipType={profile.membershipType} />
              <VerifiedBadge />
            </div>
          </div>
          {isOwnProfile ? (
            <Link to="/edit-profile" className="btn-primary self-stretch sm:self-center">
              Edit Profile
            </Link>
          ) : blocked ? null : (
            <Link to={messageAgentPath(profile.agentId)} className="btn-primary self-stretch sm:self-center">
              <ChatIcon className="h-4 w-4" />
              Send Message
            </Link>
          )}
        </header>
        {isOwnProfile ? null : (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            {blockedByMe ? <p className="text-slate-700">You blocked {profile.fullName}.</p> : null}
            <BlockButton agentId={rowId} agentName={profile.fullName} blocked={blockedByMe} back={`/agent/${profile.agentId}`} />
            <Link to={reportPath("profile", profile.agentId)} className="font-semibold text-red-700 hover:underline">
              Report profile
            </Link>
          </div>
        )}

        <div className="grid gap-6 md:grid-cols-[3fr_2fr] md:items-start">
          <section className="card" aria-labelledby="about-title">
            <h2 id="about-title" className="text-lg font-bold text-slate-900">
              About
            </h2>
            {profile.bio.trim() ? (
              <p className="mt-3 leading-relaxed wrap-anywhere whitespace-pre-line text-slate-700">{profile.bio}</p>
            ) : (
              <p className="mt-3 text-slate-500 italic">{NO_BIO}</p>
            )}
          </section>

          <div className="space-y-6">
            <section className="card" aria-labelledby="specialties-title">
              <h2 id="specialties-title" className="text-lg font-bold text-slate-900">
                Specialties
              </h2>
              <div className="mt-3">
                <AgentSpecialtyList specialties={profile.specialties} />
              </div>
            </section>

            <section className="card" aria-labelledby="contact-title">
              <h2 id="contact-title" className="text-lg font-bold text-slate-900">
                Contact
              </h2>
              <dl className="mt-3 space-y-3 text-sm">
                <div>
                  <dt className="font-semibold text-slate-500">Email</dt>
                  <dd className="mt-0.5 flex items-center gap-1.5">
                    <MailIcon className="h-4 w-4 shrink-0 text-slate-500" />
                    <a href={`mailto:${profile.email}`} className="break-all text-brand-700 underline underline-offset-2">
                      {profile.email}
                    </a>
                  </dd>
                </div>
                <div>
                  <dt className="font-semibold text-slate-500">Phone</dt>
                  <dd className="mt-0.5 flex items-center gap-1.5">
                    <PhoneIcon className="h-4 w-4 shrink-0 text-slate-500" />
                    {profile.phone ? (
                      <a href={`tel:${profile.phone.replace(/[^\d+]/g, "")}`} className="text-brand-700 underline underline-offset-2">
                        {profile.phone}
                      </a>
                    ) : (
                      <span className="text-slate-500">Not provided</span>
                    )}
                  </dd>
                </div>
              </dl>
            </section>
          </div>
        </div>
        {trackRecord ? <TrackRecordCard record={trackRecord.record} stars={trackRecord.stars} /> : null}
        <ReviewList reviews={reviews} agentName={profile.fullName} />
      </article>
    </div>
  );
}

function BackToDirectory() {
  return (
    <Link to="/member-directory" className="inline-flex items-center gap-1.5 text-sm font-semibold text-brand-700 hover:text-brand-800">
      <span aria-hidden="true">←</span> Back to Member Directory
    </Link>
  );
}

/** The "Agent Not Found" page, whose message says whether the id is unknown or the profile failed to load. */
function AgentNotFound({ message }: { message: string }) {
  return (
    <ErrorPanel titleId="not-found-title" badge={<UsersIcon className="h-9 w-9" />} title="Agent Not Found" text={message}>
      <BackToDirectory />
    </ErrorPanel>
  );
}

export function ErrorBoundary() {
  const failed = () => <AgentNotFound message="Failed to load agent profile" />;
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: () => <AgentNotFound message={AGENT_NOT_FOUND} /> }}
      defaultStatusHandler={failed}
      unexpectedErrorHandler={failed}
    />
  );
}
