/**
 * The demo's Invitations rows, from `demo-data/invitations.ts`: each names a request and an
 * agent, its id fixed by both, its times counted from the request's posting.
 */
import type { Agent, Invitation, ReferralRequest } from "~/domain/workbook/tabs";
import { INVITATIONS, RESPOND_BY_HOURS } from "./demo-data/invitations";
import { agentNamed, clockAt, demoId } from "./demo-kit";

/** The request's Respond by, when the demo gives it one. */
export function demoRespondBy(now: Date, requestKey: string, createdAt: string): string | undefined {
  const hours = RESPOND_BY_HOURS[requestKey];
  return hours === undefined ? undefined : clockAt(now).after(createdAt, hours);
}

export function buildDemoInvitations(now: Date, agents: readonly Agent[], requestOf: (key: string) => ReferralRequest): Invitation[] {
  const clock = clockAt(now);
  return INVITATIONS.map((seed) => {
    const request = requestOf(seed.request);
    return {
      id: demoId(`invitation:${seed.request}:${seed.agent}`),
      requestId: request.id,
      posterEmail: request.agentEmail,
      agentEmail: agentNamed(agents, seed.agent).email,
      status: seed.notAFit ? "declined" : "invited",
      reason: seed.notAFit?.reason ?? "",
      createdAt: clock.after(request.createdAt, seed.hoursLater),
      answeredAt: seed.notAFit ? clock.after(request.createdAt, seed.notAFit.hoursLater) : undefined,
      remindedAt: undefined,
    };
  });
}
