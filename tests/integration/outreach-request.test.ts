/**
 * Referring a request to an agent who is not a member (docs/decisions/0083): offered where
 * fewer than five members fit, a Texas license confirmed in TREC's data (an inactive one
 * refused with the reason), a mail with the request's outline and never the client's details,
 * and once staff approve the agent who joined, their invitation to the request and the poster's notice.
 */
import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import type { TrecLicense } from "../../app/domain/license-check";
import { deadlineLabel, LATE_INVITATION_RESPOND_BY_HOURS } from "../../app/domain/invitations";
import { inactiveLicenseMessage } from "../../app/domain/outreach";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";
import { calendarItemsFor } from "../../app/server/calendar/calendar.server";
import { invitationsToAnswer } from "../../app/server/invitations/invitations.server";
import { remindInvitedAgents } from "../../app/server/jobs/invitation-reminders.server";
import { loader as detailLoader } from "../../app/routes/referral-requests.$id._index";
import { action as referAction } from "../../app/routes/referral-requests.$id.refer";
import { insertAgent, sentMails, testContext } from "../support/services";
import { editAgentRow } from "./accounts-support";
import { get, insertRequest, outcome, post, sessionCookie, type Rejection } from "./requests-support";

const HOUR = 60 * 60 * 1000;
let context: AppLoadContext;
let maria: Agent;
let cookie: string;
let request: ReferralRequest;

const license = (fields: Partial<TrecLicense> & Pick<TrecLicense, "licenseNumber" | "fullName">): TrecLicense => ({
  licenseType: "SALE",
  suffix: "",
  status: "Current and active",
  expiration: "2099-12-31",
  sponsorName: "WEST TEXAS LAND CO",
  sponsorLicenseNumber: "9000001",
  email: "",
  ...fields,
});

async function* each(records: readonly TrecLicense[]): AsyncIterable<TrecLicense> {
  yield* records;
}

beforeEach(async () => {
  context = testContext();
  await context.services.store.refresh();
  await context.services.licenses.table.replace(
    each([
      license({ licenseNumber: "0700001", fullName: "ORTIZ, SAM" }),
      license({ licenseNumber: "0700002", fullName: "PARK, LEE", status: "Current and inactive" }),
      license({ licenseNumber: "0700003", fullName: "HALE, JO", status: "Expired", expiration: "2024-01-31" }),
    ]),
    "test data",
  );
  maria = await insertAgent(context, { fullName: "Maria Delgado", email: "maria@example.com", city: "Dallas", state: "TX" });
  cookie = await sessionCookie(context, maria);
  request = await insertRequest(context, maria, {
    title: "Ranch buyer for the Hendricks family",
    location: "Big Lake",
    state: "TX",
    description: "The Hendricks want 200 acres with water rights.",
    priceRange: "$500k - $1M",
    timeline: "3months",
  });
});

/**
 * Sam registers through the mail's link (the registration flow is tested in outreach.test.ts)
 * and staff approve him in the sheet; resolves once he is invited to the request.
 */
async function approveSamThroughOutreach(): Promise<Agent> {
  const row = context.services.store.outreach.by("email", "sam@example.com")[0]!;
  const sam = await insertAgent(context, {
    fullName: "Sam Ortiz",
    email: "sam@example.com",
    status: "pending",
    invitedBy: maria.id,
    city: "Big Lake",
  });
  await context.services.store.outreach.update(row.id, { agentId: sam.id });
  await editAgentRow(context, sam.id, { status: "approved" });
  await expect
    .poll(() => context.services.store.invitations.by("requestId", request.id).map((each) => each.agentEmail), { timeout: 5_000 })
    .toEqual(["sam@example.com"]);
  return sam;
}

function refer(fields: Record<string, string>) {
  return outcome(() =>
    referAction({ request: post(`/referral-requests/${request.id}/refer`, cookie, fields), context, params: { id: request.id } }),
  );
}

describe("know an agent in Big Lake?", { timeout: 30_000 }, () => {
  it("is offered to the poster where fewer than five members fit, and to no one else", async () => {
    const page = (await detailLoader({ request: get(`/referral-requests/${request.id}`, cookie), context, params: { id: request.id } }))
      .data;
    expect(page.knowAnAgentIn).toBe("Big Lake, TX");
    const other = await insertAgent(context, { email: "other@example.com" });
    const theirs = (
      await detailLoader({
        request: get(`/referral-requests/${request.id}`, await sessionCookie(context, other)),
        context,
        params: { id: request.id },
      })
    ).data;
    expect(theirs.knowAnAgentIn).toBeNull();
  });

  it("refuses an inactive or expired Texas license with TREC's reason, keeping the input", async () => {
    for (const [licenseNumber, status] of [
      ["0700002", "Current and inactive"],
      ["0700003", "Expired"],
    ] as const) {
      const answer = (await refer({ name: "Lee Park", email: "lee@example.com", licenseNumber, licenseState: "TX" })) as Rejection;
      expect(answer.init?.status).toBe(400);
      expect(answer.data.error).toEqual({ licenseNumber: [inactiveLicenseMessage(status)] });
      expect(answer.data.initialValue).toMatchObject({ name: "Lee Park", email: "lee@example.com", licenseNumber });
    }
    expect(await sentMails(context.services)).toHaveLength(0);
  });

  it("shows TREC's record to confirm, then mails the outline only; once the agent joins and is approved, invites them and tells the poster", async () => {
    const fields = { name: "Sam Ortiz", email: "sam@example.com", licenseNumber: "0700001", licenseState: "TX" };
    const shown = (await refer(fields)) as { data: { confirm: unknown } };
    expect(shown.data.confirm).toEqual({
      fullName: "ORTIZ, SAM",
      status: "Current and active",
      sponsor: "WEST TEXAS LAND CO",
      licenseNumber: "0700001",
    });
    expect(await sentMails(context.services)).toHaveLength(0);

    const sent = (await refer({ ...fields, confirmed: "0700001" })) as Response;
    expect(sent.status).toBe(302);
    const [mail] = (await sentMails(context.services)).filter((each) => each.to === "sam@example.com");
    expect(mail!.subject).toBe("Maria Delgado would like to refer a client in Big Lake, TX to you");
    for (const shownFact of ["Big Lake, TX", "Referral", "$500k - $1M"]) expect(mail!.text).toContain(shownFact);
    for (const secret of ["Hendricks", "200 acres", "water rights"]) {
      expect(mail!.text).not.toContain(secret);
      expect(mail!.html).not.toContain(secret);
    }
    expect(mail!.text).toContain("Don't invite me again");
    const row = context.services.store.outreach.by("email", "sam@example.com")[0]!;
    expect(row).toMatchObject({ requestId: request.id, licenseNumber: "0700001", licenseState: "TX", inviterId: maria.id });

    await approveSamThroughOutreach();
    const mails = await sentMails(context.services);
    expect(mails.filter((each) => each.to === "maria@example.com").map((each) => each.subject)).toEqual([
      "Sam Ortiz joined and is invited to your request",
    ]);
    expect(mails.filter((each) => each.to === "sam@example.com").map((each) => each.subject)).toContain(
      "Maria Delgado invites you to respond: Ranch buyer for the Hendricks family",
    );
    // Another refresh does not invite or tell anyone again.
    await context.services.store.refresh();
    expect(context.services.store.invitations.by("requestId", request.id)).toHaveLength(1);
    expect((await sentMails(context.services)).filter((each) => each.to === "maria@example.com")).toHaveLength(1);
  });

  it("gives the agent invited on approval a fresh Respond by when the request's has passed: on their dashboard, the request, the mail, their calendar and for the reminder", async () => {
    const { store, notifier, config, sendClaims } = context.services;
    const passed = new Date(Date.now() - 3 * HOUR).toISOString();
    await store.requests.update(request.id, { respondBy: passed });
    const fields = { name: "Sam Ortiz", email: "sam@example.com", licenseNumber: "0700001", licenseState: "TX" };
    await refer({ ...fields, confirmed: "0700001" });
    const before = Date.now();
    const sam = await approveSamThroughOutreach();

    const invitation = store.invitations.by("requestId", request.id)[0]!;
    const fresh = Date.parse(invitation.respondBy ?? "");
    expect(fresh).toBeGreaterThanOrEqual(before + LATE_INVITATION_RESPOND_BY_HOURS * HOUR);
    expect(fresh).toBeLessThanOrEqual(Date.now() + LATE_INVITATION_RESPOND_BY_HOURS * HOUR);
    expect(store.requests.get(request.id)!.respondBy).toBe(passed);
    expect(invitationsToAnswer(context.services, sam, new Date()).map((each) => each.respondBy)).toEqual([
      deadlineLabel(invitation.respondBy!),
    ]);

    const samsPage = (
      await detailLoader({
        request: get(`/referral-requests/${request.id}`, await sessionCookie(context, sam)),
        context,
        params: { id: request.id },
      })
    ).data;
    expect(samsPage.respondBy).toEqual({ label: deadlineLabel(invitation.respondBy!), passed: false });
    expect(calendarItemsFor(context.services, sam, new Date()).map((item) => item.when)).toEqual([
      { kind: "time", at: invitation.respondBy },
    ]);

    const invitedMail = (await sentMails(context.services)).find(
      (each) => each.to === "sam@example.com" && each.subject.includes("invites you"),
    );
    expect(invitedMail!.text).toContain(deadlineLabel(invitation.respondBy!));
    // The one reminder falls due two hours before the invitee's own deadline, not the request's.
    expect(await remindInvitedAgents({ store, notifier, config, claims: sendClaims }, new Date(fresh - 3 * HOUR))).toBe(0);
    expect(await remindInvitedAgents({ store, notifier, config, claims: sendClaims }, new Date(fresh - HOUR))).toBe(1);
  });
});
