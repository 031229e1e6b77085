import { Link } from "@remix-run/react";
import { AgentAvatar } from "~/components/agent-avatar";
import { MembershipBadge, MembershipTypeLabel, SpecialtyBadges, VerifiedBadge } from "~/components/agent-badges";
import { ChatIcon, MailIcon, MapPinIcon, PhoneIcon } from "~/components/icons";
import { locationLabel } from "~/domain/member-profile";
import { starsLabel, type CardFigures } from "~/domain/track-record-text";
import type { MembershipType } from "~/domain/workbook/tabs";

export function StarsSummary({ average, count }: { average: number; count: number }) {
  return (
    <span className="inline-flex items-center gap-1 font-semibold text-slate-800">
      <span aria-hidden="true" className="text-amber-600">
        ★
      </span>
      <span className="sr-only">{starsLabel(average, count)}</span>
      <span aria-hidden="true">
        {average.toFixed(1)} <span className="font-normal text-slate-600">({count})</span>
      </span>
    </span>
  );
}

function CardTrackRecord({ figures }: { figures: CardFigures }) {
  if (!figures.stars && !figures.replyTime) return null;
  return (
    <p className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700" data-testid="card-track-record">
      {figures.stars ? <StarsSummary average={figures.stars.average} count={figures.stars.count} /> : null}
      {figures.replyTime ? <span>{figures.replyTime}</span> : null}
    </p>
  );
}

/** What the public directory may show of an agent: no e-mail, no phone. */
export type PublicAgentCardData = {
  key: string;
  fullName: string;
  city: string;
  state: string;
  brokerage: string;
  specialties: string[];
  membershipType: MembershipType;
  photoUrl: string | null;
  profileHref: string;
  /** Null on the member's own card: nobody messages themselves. */
  messageHref: string | null;
  trackRecord: CardFigures;
};

export function PublicAgentCard({ agent }: { agent: PublicAgentCardData }) {
  return (
    <article className="card flex h-full flex-col p-5" aria-label={agent.fullName}>
      <div className="flex items-start gap-4">
        <AgentAvatar fullName={agent.fullName} photoUrl={agent.photoUrl} />
        <div className="min-w-0 flex-1">
          <h3 className="text-lg leading-snug font-bold wrap-anywhere text-slate-900">{agent.fullName}</h3>
          <p className="mt-0.5 flex items-center gap-1 text-sm text-slate-600">
            <MapPinIcon className="h-4 w-4 shrink-0" />
            {locationLabel(agent.city, agent.state)}
          </p>
          <div className="mt-2 flex flex-wrap gap-1.5">
            <VerifiedBadge />
            <MembershipBadge membershipType={agent.membershipType} />
          </div>
        </div>
      </div>
      {agent.brokerage ? <p className="mt-4 text-sm font-medium wrap-anywhere text-slate-700">{agent.brokerage}</p> : null}
      <CardTrackRecord figures={agent.trackRecord} />
      <div className="mt-3">
        <SpecialtyBadges specialties={agent.specialties} label={`Specialties of ${agent.fullName}`} />
      </div>
      <div className="mt-auto grid grid-cols-2 gap-2 pt-5">
        <Link to={agent.profileHref} className="btn-outline" aria-label={`View Profile of ${agent.fullName}`}>
          View Profile
        </Link>
        {agent.messageHref ? (
          <Link to={agent.messageHref} className="btn-primary" aria-label={`Message ${agent.fullName}`}>
            <ChatIcon className="h-4 w-4" />
            Message
          </Link>
        ) : (
          <Link to="/edit-profile" className="btn-primary">
            Edit Profile
          </Link>
        )}
      </div>
    </article>
  );
}

/** The member directory's card: contact details and a bio preview, for logged-in members only. */
export type MemberAgentCardData = {
  key: string;
  fullName: string;
  membershipType: MembershipType;
  city: string;
  state: string;
  brokerage: string;
  phone: string;
  specialties: string[];
  bioPreview: string;
  profileHref: string;
  contactHref: string;
  trackRecord: CardFigures;
  /** With the "near a place" filter: how far this agent serves from it ("12 mi from Tyler"). */
  distance?: string;
};

export function MemberAgentCard({ agent }: { agent: MemberAgentCardData }) {
  return (
    <article className="card flex h-full flex-col p-5" aria-label={agent.fullName}>
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 text-lg leading-snug font-bold wrap-anywhere text-slate-900">{agent.fullName}</h3>
        <MembershipTypeLabel membershipType={agent.membershipType} />
      </div>
      <div className="mt-1.5 flex flex-wrap gap-1.5">
        <VerifiedBadge />
      </div>
      <dl className="mt-4 space-y-1.5 text-sm text-slate-700">
        <div className="flex items-start gap-1.5">
          <dt className="sr-only">Location</dt>
          <MapPinIcon className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" />
          <dd>{locationLabel(agent.city, agent.state)}</dd>
        </div>
        {agent.distance ? (
          <div>
            <dt className="sr-only">Distance</dt>
            <dd className="font-semibold text-brand-800">{agent.distance}</dd>
          </div>
        ) : null}
        {agent.brokerage ? (
          <div>
            <dt className="sr-only">Brokerage</dt>
            <dd className="font-medium wrap-anywhere">{agent.brokerage}</dd>
          </div>
        ) : null}
        {agent.phone ? (
          <div className="flex items-start gap-1.5">
            <dt className="sr-only">Phone</dt>
            <PhoneIcon className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" />
            <dd>{agent.phone}</dd>
          </div>
        ) : null}
      </dl>
      <CardTrackRecord figures={agent.trackRecord} />
      <div className="mt-3">
        <SpecialtyBadges specialties={agent.specialties} label={`Specialties of ${agent.fullName}`} />
      </div>
      {agent.bioPreview ? <p className="mt-3 text-sm leading-relaxed wrap-anywhere text-slate-600">{agent.bioPreview}</p> : null}
      <div className="mt-auto grid grid-cols-2 gap-2 pt-5">
        <Link to={agent.profileHref} className="btn-outline" aria-label={`View Profile of ${agent.fullName}`}>
          View Profile
        </Link>
        <a href={agent.contactHref} className="btn-primary" aria-label={`Contact ${agent.fullName}`}>
          <MailIcon className="h-4 w-4" />
          Contact
        </a>
      </div>
    </article>
  );
}
