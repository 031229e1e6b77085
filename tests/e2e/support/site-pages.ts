import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { agentIdFromEmail } from "../../../app/domain/agent-id";
import { WHY_PATH } from "../../../app/domain/product";
import { WORKBOOK, type Agent } from "../../../app/domain/workbook/tabs";
import { fillQuickRegistration } from "./registration";
import { seedPublishedReviews, seedReferral } from "./referrals";
import { seedRequests, testRequest } from "./requests";
import { insertRows } from "./store-file";
import type { Fixtures } from "../fixtures";

/**
 * The longest values a real member could type: a 60-odd character e-mail with no space
 * to break at, a double-barrelled name, a brokerage with its division, a long city name
 * and a request title that runs on. Pages showing them must wrap, never scroll sideways.
 */
export function longestValues(label: string) {
  const token = randomUUID().slice(0, 6);
  return {
    fullName: "Maximiliana Alexandra Montgomery-Vanderbilt de la Cruz",
    email: `firstname.middlename-lastname.${label}${token}@long-brokerage-name-realty.example`,
    brokerage: "Keller Williams Realty Dallas-Fort Worth Metroplex Luxury Ranch & Land Division",
    city: "Lake Dallas-Hickory Creek-Shady Shores",
    title: `Relocating family of six needs a four-bedroom home near Plano ISD with a pool before spring ${token}`,
    phone: "(214) 555-0199",
  };
}

export type SitePage = { name: string; path: string };

export const PUBLIC_PAGES: readonly SitePage[] = [
  { name: "home", path: "/" },
  { name: "why", path: WHY_PATH },
  { name: "contact", path: "/contact" },
  { name: "contact-sent", path: "/contact/sent" },
  { name: "privacy-policy", path: "/privacy-policy" },
  { name: "terms-of-service", path: "/terms-of-service" },
  { name: "welcome", path: "/welcome" },
  { name: "member-login", path: "/member-login" },
  { name: "member-login-reason", path: "/member-login?redirectTo=%2Fpost-request" },
  { name: "forgot-password", path: "/forgot-password" },
  { name: "reset-password", path: "/reset-password?token=expired" },
  { name: "login-link", path: "/login-link" },
  { name: "one-time-login-invalid", path: "/one-time-login?token=altered" },
  { name: "unsubscribe-invalid", path: "/unsubscribe?token=altered" },
  { name: "broker", path: "/broker" },
  { name: "broker-approval-invalid", path: "/broker-approval?token=altered" },
  { name: "directory", path: "/directory" },
  { name: "not-found", path: "/no-such-page" },
  { name: "register", path: "/register" },
];

/** The registration screens after /register, reached by filling it in with the given details. */
export async function startRegistration(
  page: Page,
  details: { fullName: string; email: string; phone: string; city: string },
): Promise<void> {
  await page.goto("/register");
  await fillQuickRegistration(page, { ...details, state: "TX" });
  await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
  await expect(page).toHaveURL(/\/payment$/);
}

export const REGISTRATION_PAGES: readonly SitePage[] = [
  { name: "payment", path: "/payment" },
  { name: "registration-success", path: "/registration-success" },
  { name: "complete-profile", path: "/complete-profile" },
];

export type MemberSite = { member: Agent; other: Agent; pages: SitePage[] };

/**
 * Two members with the longest values, a request of each, and every page a member sees
 * with them on it. Seeded straight into the store with the `seedAgent` fixture; wait for the replica before use.
 */
export function seedMemberSite(label: string, seedAgent: Fixtures["seedAgent"]): MemberSite {
  const mine = longestValues(`${label}m`);
  const theirs = longestValues(`${label}o`);
  const member = seedAgent({
    fullName: mine.fullName,
    email: mine.email,
    brokerage: mine.brokerage,
    city: mine.city,
    phone: mine.phone,
    bio: `${mine.title} `.repeat(6),
    membershipType: "founder",
    specialties: ["Residential", "Farm and Ranch", "Recreational (RV and Glamping)", "Luxury"],
  });
  const other = seedAgent({
    fullName: theirs.fullName,
    email: theirs.email,
    brokerage: theirs.brokerage,
    city: theirs.city,
    phone: theirs.phone,
    bio: theirs.title,
    membershipType: "founder",
    specialties: ["Commercial Income"],
  });
  const ownRequest = testRequest(member, {
    title: mine.title,
    location: mine.city,
    requestType: "listing",
    listingAddress: `12345 ${mine.city} Boulevard`,
    listingMLS: "MLS-123456789",
  });
  const theirRequest = testRequest(other, {
    title: theirs.title,
    location: theirs.city,
    urgent: true,
    hoursAgo: 1,
    respondBy: new Date(Date.now() + 23 * 60 * 60 * 1000).toISOString(),
  });
  seedRequests([ownRequest, theirRequest]);
  // The member is invited to the other's request: the dashboard's "Invited to respond" and the Not a fit page.
  const invitedAt = new Date().toISOString();
  insertRows(WORKBOOK.invitations, [
    {
      id: randomUUID(),
      requestId: theirRequest.id,
      posterEmail: other.email,
      agentEmail: member.email,
      status: "invited",
      reason: "",
      createdAt: invitedAt,
      answeredAt: undefined,
      remindedAt: undefined,
    },
  ]);
  seedReferral(member, other, { clientName: mine.fullName.slice(0, 40), status: "closed", grossCommission: 123_456_789 });
  seedReferral(other, member, { clientName: theirs.fullName.slice(0, 40), status: "under_contract" });
  const toReview = seedReferral(member, other, { clientName: mine.fullName.slice(0, 40), status: "lost" });
  const reviewed = seedReferral(other, member, { clientName: theirs.fullName.slice(0, 40), status: "fee_received" });
  seedPublishedReviews(reviewed, `${theirs.title} `.repeat(8), `${mine.title} `.repeat(8));
  const otherId = agentIdFromEmail(other.email);
  const pages: SitePage[] = [
    { name: "member-dashboard", path: "/member-dashboard" },
    { name: "member-directory", path: `/member-directory?city=${encodeURIComponent(mine.city)}` },
    { name: "member-directory-near", path: "/member-directory?near=Tyler%2C+TX" },
    { name: "directory-member", path: `/directory?q=${encodeURIComponent(mine.fullName)}` },
    { name: "agent-profile", path: `/agent/${otherId}` },
    { name: "own-profile", path: `/agent/${agentIdFromEmail(member.email)}` },
    { name: "messages-new", path: `/messages?to=${otherId}` },
    { name: "messages", path: "/messages" },
    { name: "post-request", path: "/post-request" },
    { name: "post-request-listing", path: "/post-request?type=listing" },
    { name: "referral-requests", path: "/referral-requests" },
    { name: "referral-requests-mine", path: "/referral-requests?tab=mine" },
    { name: "request", path: `/referral-requests/${theirRequest.id}` },
    { name: "own-request", path: `/referral-requests/${ownRequest.id}` },
    { name: "respond", path: `/referral-requests/${theirRequest.id}/respond` },
    { name: "not-a-fit", path: `/referral-requests/${theirRequest.id}/not-a-fit` },
    { name: "edit-request", path: `/referral-requests/${ownRequest.id}/edit` },
    { name: "delete-request", path: `/referral-requests/${ownRequest.id}/delete` },
    { name: "referrals", path: "/referrals" },
    { name: "referrals-filtered", path: "/referrals?role=sent&status=signed" },
    { name: "edit-profile", path: "/edit-profile" },
    { name: "notification-settings", path: "/settings/notifications" },
    { name: "agent-not-found", path: "/agent/nobody_example_com" },
    { name: "settings-blocked", path: "/settings/blocked" },
    { name: "settings-calendar", path: "/settings/calendar" },
    { name: "report-request", path: `/report?kind=request&id=${theirRequest.id}` },
    { name: "report-profile", path: `/report?kind=profile&id=${otherId}` },
    { name: "review", path: `/referrals/${toReview.id}/review` },
    { name: "review-published", path: `/referrals/${reviewed.id}/review` },
    { name: "report-review", path: `/report?kind=review&id=${reviewed.id}-referring` },
  ];
  return { member: member, other: other, pages };
}

/** How far the page reaches past the right edge of the window, in CSS pixels (0 when it does not scroll sideways). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/** The elements sticking out past the window's right edge, to name in a failure. */
export function elementsPastTheEdge(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("body *"))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${String(element.className).split(" ").slice(0, 3).join(".")}: ${(element.textContent ?? "").trim().slice(0, 50)}`,
      ),
  );
}
