/**
 * The demo's Outreach and Suppressions rows, from `demo-data/outreach.ts`: the demo login's
 * invitations to join, each id fixed by the invitee's address. An invitee who joined is
 * credited on their Outreach row (`agentId`), the way registering through the link does.
 */
import type { Agent, OutreachRow, ReferralRequest, TabKeyRecord } from "~/domain/workbook/tabs";
import { OUTREACH, SUPPRESSIONS } from "./demo-data/outreach";
import { agentNamed, clockAt, demoId } from "./demo-kit";

export type DemoSuppression = TabKeyRecord<"suppressions">;

type OutreachContext = {
  now: Date;
  login: Agent;
  agents: readonly Agent[];
  requestOf: (key: string) => ReferralRequest;
  emailOf: (name: string) => string;
};

export function buildDemoOutreach({ now, login, agents, requestOf, emailOf }: OutreachContext): OutreachRow[] {
  const clock = clockAt(now);
  const daysAgo = (days: number | undefined) => (days === undefined ? undefined : clock.daysAgo(days));
  return OUTREACH.map((seed) => ({
    id: demoId(`outreach:${emailOf(seed.name)}`),
    inviterId: login.id,
    name: seed.name,
    email: emailOf(seed.name),
    licenseNumber: seed.licenseNumber,
    licenseState: seed.licenseState ?? "",
    note: seed.note,
    requestId: seed.request === undefined ? undefined : requestOf(seed.request).id,
    createdAt: clock.daysAgo(seed.daysAgo),
    openedAt: daysAgo(seed.openedDaysAgo),
    remindedAt: daysAgo(seed.remindedDaysAgo),
    agentId: seed.joined ? agentNamed(agents, seed.name).id : undefined,
  }));
}

export function buildDemoSuppressions(now: Date, emailOf: (name: string) => string): DemoSuppression[] {
  const clock = clockAt(now);
  return SUPPRESSIONS.map((seed) => ({
    id: demoId(`suppression:${emailOf(seed.name)}`),
    email: emailOf(seed.name),
    reason: seed.reason,
    note: seed.note,
    createdAt: clock.daysAgo(seed.daysAgo),
  }));
}
