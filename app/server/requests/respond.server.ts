import { shouldNotify } from "~/domain/messages";
import { isLive } from "~/domain/referral-requests/expiry";
import type { Agent, RequestResponse } from "~/domain/workbook/tabs";
import { responseMail } from "../mail/request-mail.server";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";
import { responseCount } from "./views.server";

export type RespondResult =
  | { ok: true; response: RequestResponse }
  /** closed: deleted or expired; own: members do not answer their own requests. */
  | { ok: false; reason: "closed" | "own" | "missing" };

type RespondServices = Pick<Services, "store" | "mailer" | "writeQueues" | "sendClaims">;

/**
 * Stores a response in the Responses tab, writes the request's count of responses
 * and mails the poster, at most once per request every 10 minutes. Resolves once the response is stored; a count or mail that fails after
 * that is logged, since the response itself is kept and must not be sent twice.
 * Rejects (nothing stored) when the response cannot be written.
 */
export async function respondToRequest(
  services: RespondServices,
  options: { requestId: string; member: Agent; message: string; now: Date; link: string; log?: Pick<Console, "error"> },
): Promise<RespondResult> {
  const { store, mailer } = services;
  const { requestId, member, message, now, link, log = console } = options;
  const request = store.requests.get(requestId);
  if (!request) return { ok: false, reason: "missing" };
  if (request.agentEmail === member.email) return { ok: false, reason: "own" };
  if (!isLive(request, now)) return { ok: false, reason: "closed" };

  const response = await store.responses.insert({
    id: newId(),
    requestId: request.id,
    fromEmail: member.email,
    fromName: member.fullName,
    toEmail: request.agentEmail,
    message,
    createdAt: now.toISOString(),
  });
  try {
    await recountResponses(services, request.id);
  } catch (error) {
    log.error(`Response ${response.id} stored, but the count of request ${request.id} was not updated:`, error);
  }
  try {
    await notifyPoster(
      services,
      request.id,
      now,
      () => mailer.send(responseMail({ request, responder: member, message, link, sentAt: now })),
      log,
    );
  } catch (error) {
    log.error(`Response ${response.id} stored, but the mail to the poster failed:`, error);
  }
  return { ok: true, response };
}

/**
 * Mails the poster unless they were mailed about this request in the last 10 minutes,
 * then records the time in the request's `lastNotifiedAt`: the rule message mails
 * follow (docs/decisions/0005), so thirty responses in a row are one mail, and every
 * response stays on the request's page. Across instances the mail is claimed as the next
 * link of the request's chain of notifications (docs/decisions/0029), so responses
 * arriving at two instances mail once. A failed mail records nothing but its failed claim.
 */
function notifyPoster(
  { store, writeQueues, sendClaims }: RespondServices,
  requestId: string,
  now: Date,
  send: () => Promise<void>,
  log: Pick<Console, "error">,
): Promise<void> {
  return writeQueues.serially(`notify:${requestId}`, async () => {
    if (!shouldNotify(store.requests.get(requestId)?.lastNotifiedAt, now)) return;
    if ((await sendClaims.sendOnce(sendClaims.nextInChain(`response:${requestId}`), now, send)) === "taken") return;
    try {
      await store.requests.update(requestId, { lastNotifiedAt: now.toISOString() });
    } catch (error) {
      log.error(`The response mail for request ${requestId} was sent but its time could not be stored:`, error);
    }
  });
}

/**
 * Writes the count of a request's rows into its `responses` cell, for staff reading the
 * Requests tab. Counted, never incremented, and one write at a time per request, so
 * responses arriving together cannot overwrite each other's count with an older one.
 */
function recountResponses(services: RespondServices, requestId: string): Promise<unknown> {
  return services.writeQueues.serially(`responses:${requestId}`, () =>
    services.store.requests.update(requestId, { responses: responseCount(services, requestId) }),
  );
}

/** The responses to a request, newest first: only its owner is shown them. */
export function responsesTo({ store }: Pick<Services, "store">, requestId: string): RequestResponse[] {
  return [...store.responses.by("requestId", requestId)].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}
