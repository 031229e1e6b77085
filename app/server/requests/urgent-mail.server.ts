import { MARKET_STATE_NAMES, type MarketState } from "~/domain/enums";
import { wantsMail } from "~/domain/notifications";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { urgentRequestMail } from "../mail/request-mail.server";
import { withUnsubscribe } from "../mail/unsubscribe.server";
import type { Services } from "../services.server";

/** Mails handed to the mailer at once: enough to get through a state's members quickly without a burst of hundreds of calls. */
const SENDS_AT_ONCE = 4;

type UrgentServices = Pick<Services, "store" | "mailer" | "config" | "sendClaims">;

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
 * Mails each recipient of a new urgent request once. Meant to run after the poster's page
 * has been answered (the caller does not wait): it never rejects, and a mail that fails is
 * logged and not retried, since the request is on the site either way. Claimed once per
 * request, so a post sent again after a lost answer does not mail the state twice.
 */
export async function mailUrgentRequest(
  services: UrgentServices,
  request: ReferralRequest,
  options: { request?: Request; log?: Pick<Console, "error"> } = {},
): Promise<{ sent: number; failed: number }> {
  const { log = console } = options;
  const key = `urgent:${request.id}`;
  const claimed = await services.sendClaims.claim([key], new Date()).catch((error: unknown) => {
    log.error(`Urgent request ${request.id}: the mails could not be claimed; none sent.`, error);
    return new Set<string>();
  });
  if (!claimed.has(key)) return { sent: 0, failed: 0 };
  let recipients: Agent[];
  try {
    recipients = urgentRecipients(services, request);
  } catch (error) {
    log.error(`Urgent request ${request.id}: its recipients could not be worked out; no mail sent.`, error);
    return { sent: 0, failed: 0 };
  }
  const outcome = { sent: 0, failed: 0 };
  const queue = [...recipients];
  const worker = async () => {
    for (let agent = queue.shift(); agent; agent = queue.shift()) {
      try {
        await services.mailer.send(urgentMailFor(services, request, agent, options.request));
        outcome.sent += 1;
      } catch (error) {
        outcome.failed += 1;
        log.error(`Urgent request ${request.id}: the mail to agent ${agent.id} failed.`, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SENDS_AT_ONCE, queue.length) }, worker));
  return outcome;
}

function urgentMailFor({ config }: UrgentServices, request: ReferralRequest, agent: Agent, httpRequest?: Request) {
  const stateName = MARKET_STATE_NAMES[request.state as MarketState] ?? request.state;
  const specialty = request.specialty.trim();
  return withUnsubscribe(
    urgentRequestMail({ request, recipient: agent, link: publicUrl(config, `/referral-requests/${request.id}`, httpRequest) }),
    {
      config,
      recipient: agent,
      kind: "urgent",
      reason: `you are a member in ${stateName}${specialty ? ` working in ${specialty}` : ""} with urgent request mails on`,
      request: httpRequest,
    },
  );
}
