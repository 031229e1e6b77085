import { CLAIM_KEYS } from "~/domain/claim-keys";
import { MARKET_STATE_NAMES, type MarketState } from "~/domain/enums";
import { wantsMail } from "~/domain/notifications";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { urgentRequestMail } from "../mail/request-mail.server";
import type { Services } from "../services.server";

type UrgentServices = Pick<Services, "store" | "notifier" | "config">;

/**
 * Who hears of an urgent request: approved members in its state and, when it names a
 * specialty, with that specialty; never its poster, nor anyone who turned urgent mail off.
 */
function urgentRecipients({ store }: Pick<Services, "store">, request: ReferralRequest): Agent[] {
  const specialty = request.specialty.trim().toLowerCase();
  const poster = request.agentEmail;
  return store.agents
    .by("state", request.state)
    .filter(
      (agent) =>
        agent.status === "approved" &&
        agent.email !== poster &&
        (specialty === "" || agent.specialties.some((each) => each.toLowerCase() === specialty)) &&
        wantsMail(agent, "urgent"),
    );
}

/**
 * Queues the mail to each recipient of a new urgent request: the poster's page is answered
 * at once. Claimed once per request, so a post sent again after a lost answer does not mail
 * the state twice. A mail that fails after the notifier's retries is logged, since the
 * request is on the site either way.
 */
export function mailUrgentRequest(services: UrgentServices, request: ReferralRequest, httpRequest?: Request): void {
  const stateName = MARKET_STATE_NAMES[request.state as MarketState] ?? request.state;
  const specialty = request.specialty.trim();
  const reason = `you are a member in ${stateName}${specialty ? ` working in ${specialty}` : ""} with urgent request mails on`;
  const link = publicUrl(services.config, `/referral-requests/${request.id}`, httpRequest);
  const mails = urgentRecipients(services, request).map((agent) => ({
    mail: urgentRequestMail({ request, recipient: agent, link }),
    about: `the urgent request ${request.id}'s mail to agent ${agent.id}`,
    member: { recipient: agent, kind: "urgent" as const, reason, request: httpRequest },
  }));
  services.notifier.enqueueAll(mails, { once: CLAIM_KEYS.urgent.key(request.id) });
}
