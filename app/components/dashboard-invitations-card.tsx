import { Link } from "@remix-run/react";
import { AddToCalendar } from "./add-to-calendar";
import type { InvitationToAnswer } from "~/domain/invitation-views";
import { BellIcon, ClockIcon } from "./icons";

/** The dashboard's "Invited to respond": each open invitation with Respond and Not a fit. Shown only when there is one. */
export function DashboardInvitationsCard({ invitations }: { invitations: readonly InvitationToAnswer[] }) {
  if (invitations.length === 0) return null;
  return (
    <section id="invitations" className="card space-y-4" aria-labelledby="dashboard-invitations-title">
      <h2 id="dashboard-invitations-title" className="flex items-center gap-2 text-lg font-bold text-slate-900">
        <BellIcon className="h-5 w-5 text-brand-700" />
        Invited to respond
      </h2>
      <ul className="divide-y divide-slate-100">
        {invitations.map((invitation) => {
          const base = `/referral-requests/${invitation.requestId}`;
          return (
            <li
              key={invitation.requestId}
              className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0 space-y-1">
                <Link to={base} className="font-semibold wrap-anywhere text-brand-700 hover:underline">
                  {invitation.title}
                </Link>
                <p className="text-sm wrap-anywhere text-slate-600">
                  {invitation.posterName} invited you {invitation.invitedAgo.toLowerCase()} · {invitation.location}
                </p>
                {invitation.respondBy ? (
                  <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm font-medium text-slate-700">
                    <span className="flex items-center gap-1.5">
                      <ClockIcon className="h-4 w-4 shrink-0" />
                      Respond by {invitation.respondBy}
                    </span>
                    <AddToCalendar href={`${base}/calendar.ics`} what={`Respond by for ${invitation.title}`} />
                  </p>
                ) : null}
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                <Link to={`${base}/respond`} className="btn-primary">
                  Respond<span className="sr-only"> to {invitation.title}</span>
                </Link>
                <Link to={`${base}/not-a-fit`} className="btn-outline">
                  Not a fit<span className="sr-only"> for {invitation.title}</span>
                </Link>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
