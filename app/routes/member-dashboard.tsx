import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AgentAvatar } from "~/components/agent-avatar";
import { DashboardInvitationsCard } from "~/components/dashboard-invitations-card";
import { DashboardLiveRequests } from "~/components/dashboard-live-requests";
import { DashboardMessagesCard } from "~/components/dashboard-messages-card";
import { DashboardReferralsCard } from "~/components/dashboard-referrals-card";
import { DashboardReviewsCard } from "~/components/dashboard-reviews-card";
import { DashboardTiles } from "~/components/dashboard-tiles";
import { MapPinIcon, ShieldCheckIcon } from "~/components/icons";
import { brokerageLabel, firstName, locationLabel, photoSource, specialtiesSummary } from "~/domain/member-profile";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent } from "~/domain/workbook/tabs";
import { requireMember } from "~/server/auth/session.server";
import { invitationsToAnswer } from "~/server/invitations/invitations.server";
import { unlessUnavailable } from "~/server/messages/conversations.server";
import { dashboardMessages } from "~/server/messages/dashboard-messages.server";
import { dashboardReferrals } from "~/server/referrals/overview.server";
import { reviewsToWrite } from "~/server/reviews/reviews.server";
import { dashboardData } from "~/server/referral-requests/dashboard-requests.server";
import { servedPlacesText } from "~/domain/places/served-text";
import { lacksBrokerFacts } from "~/domain/sponsor";

export const meta: MetaFunction = () => [
  { title: `Member Dashboard | ${PRODUCT_NAME}` },
  { name: "description", content: "Your referral requests, the responses to them and your unread messages in one place." },
];

/** Only what the page shows goes to the browser: never the password hash or staff notes. */
function profileOf(agent: Agent) {
  return {
    fullName: agent.fullName,
    city: agent.city,
    state: agent.state,
    brokerage: agent.brokerage,
    lacksBroker: lacksBrokerFacts(agent),
    specialties: [...agent.specialties],
    served: servedPlacesText(agent.placesServed, agent.serviceRadius),
    bio: agent.bio,
    photoUrl: photoSource(agent.photoUrl),
  };
}

export type DashboardProfile = ReturnType<typeof profileOf>;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  // One moment for every card: the page's figures agree with each other.
  const now = new Date();
  return {
    profile: profileOf(member),
    ...dashboardData(context.services, member, new URL(request.url).searchParams, now),
    messages: await unlessUnavailable(dashboardMessages(context.services, member, now)),
    referrals: dashboardReferrals(context.services, member, now),
    reviewsToWrite: reviewsToWrite(context.services, member, now),
    invitations: invitationsToAnswer(context.services, member, now),
  };
}

export default function MemberDashboard() {
  const { profile, tiles, live, messages, referrals, reviewsToWrite, invitations } = useLoaderData<typeof loader>();
  return (
    <>
      <DashboardHeader fullName={profile.fullName} />
      <div className="mx-auto max-w-6xl space-y-8 px-4 py-8 sm:px-6 sm:py-10">
        <DashboardTiles tiles={tiles} />
        <DashboardInvitationsCard invitations={invitations} />
        <ProfileCard profile={profile} />
        <DashboardMessagesCard messages={messages} />
        <DashboardReferralsCard {...referrals} />
        <DashboardReviewsCard reviews={reviewsToWrite} />
        <DashboardLiveRequests live={live} />
      </div>
    </>
  );
}

function DashboardHeader({ fullName }: { fullName: string }) {
  const name = firstName(fullName);
  return (
    <div className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight text-slate-900 sm:text-3xl">
            {name ? `Welcome back, ${name}!` : "Welcome back!"}
          </h1>
          <p className="mt-1 text-slate-600">Your {PRODUCT_NAME} member dashboard.</p>
        </div>
        {/* The account's pages and Logout as one row of plain links, which wraps between links, never inside one. */}
        <nav
          aria-label="Account settings"
          className="flex flex-wrap gap-x-5 gap-y-2 text-sm font-semibold whitespace-nowrap text-brand-700"
        >
          <Link to="/edit-profile" className="hover:underline">
            Edit Profile
          </Link>
          <Link to="/settings/notifications" className="hover:underline">
            Notification Settings
          </Link>
          <Link to="/settings/blocked" className="hover:underline">
            Blocked members
          </Link>
          <Link to="/invite" className="hover:underline">
            Invite a Colleague
          </Link>
          <Form method="post" action="/logout">
            <button type="submit" className="font-semibold hover:underline">
              Logout
            </button>
          </Form>
        </nav>
      </div>
    </div>
  );
}

function ProfileCard({ profile }: { profile: DashboardProfile }) {
  const specialties = specialtiesSummary(profile.specialties);
  return (
    <section className="card" aria-labelledby="profile-title">
      <h2 id="profile-title" className="text-lg font-bold text-slate-900">
        Your Profile
      </h2>
      <div className="mt-5 flex flex-col gap-6 sm:flex-row">
        <AgentAvatar fullName={profile.fullName} photoUrl={profile.photoUrl} size="lg" />
        <div className="min-w-0 flex-1">
          <p className="text-xl font-bold wrap-anywhere text-slate-900">{profile.fullName}</p>
          <p className="mt-1 flex items-center gap-1.5 text-slate-600">
            <MapPinIcon className="h-4 w-4 shrink-0" />
            {locationLabel(profile.city, profile.state)}
          </p>
          {profile.served ? (
            <p className="mt-1 wrap-anywhere text-slate-600">{profile.served}</p>
          ) : (
            <p className="mt-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              You list no places you serve yet: requests are matched to agents by them.{" "}
              <Link to="/edit-profile" className="font-semibold underline">
                Add your places
              </Link>
            </p>
          )}
          <p className="mt-3 inline-flex items-center gap-1.5 rounded-full bg-green-50 px-3 py-1 text-sm font-semibold text-green-800 ring-1 ring-green-200">
            <ShieldCheckIcon className="h-4 w-4" />
            Verified Member
          </p>
          <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="font-semibold text-slate-500">Brokerage</dt>
              <dd className="mt-1 wrap-anywhere text-slate-900">{brokerageLabel(profile.brokerage)}</dd>
              {profile.lacksBroker ? (
                <dd className="mt-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
                  Referral agreements name your sponsoring broker: please complete their name, license number and email.{" "}
                  <Link to="/edit-profile" className="font-semibold underline">
                    Add your broker
                  </Link>
                </dd>
              ) : null}
            </div>
            <div>
              <dt className="font-semibold text-slate-500">Specialties</dt>
              <dd className="mt-1">
                {specialties.shown.length > 0 ? (
                  <ul className="flex flex-wrap gap-1.5">
                    {specialties.shown.map((specialty) => (
                      <li key={specialty} className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-800">
                        {specialty}
                      </li>
                    ))}
                    {specialties.more > 0 ? (
                      <li className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
                        +{specialties.more} more
                      </li>
                    ) : null}
                  </ul>
                ) : (
                  <span className="text-slate-900">Not specified</span>
                )}
              </dd>
            </div>
          </dl>
          {profile.bio ? <p className="mt-5 leading-relaxed wrap-anywhere whitespace-pre-line text-slate-700">{profile.bio}</p> : null}
        </div>
      </div>
    </section>
  );
}
