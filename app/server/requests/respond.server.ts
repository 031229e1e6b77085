import { isLive } from "~/domain/referral-requests";
import type { Agent, RequestResponse } from "~/domain/workbook";
import type { Mailer } from "../mail/mailer.server";
import { responseMail } from "../mail/request-mail.server";
import { newId, type Store } from "../store/store.server";

export type RespondResult =
  | { ok: true; response: RequestResponse }
  /** closed: deleted or expired; own: members do not answer their own requests. */
  | { ok: false; reason: "closed" | "own" | "missing" };

type RespondServices = { store: Pick<Store, "requests" | "responses">; mailer: Mailer };

/**
 * Stores a response in the Responses tab, adds one to the request's count and mails
 * the poster. Resolves once the response is stored; a count or mail that fails after
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
    // Read again: another response may have been counted while this one was stored.
    const current = store.requests.get(request.id) ?? request;
    await store.requests.update(request.id, { responses: current.responses + 1 });
  } catch (error) {
    log.error(`Response ${response.id} stored, but the count of request ${request.id} was not updated:`, error);
  }
  try {
    await mailer.send(responseMail({ request, responder: member, message, link, sentAt: now }));
  } catch (error) {
    log.error(`Response ${response.id} stored, but the mail to the poster failed:`, error);
  }
  return { ok: true, response };
}

/** The responses to a request, newest first: only its owner is shown them. */
export function responsesTo(store: Pick<Store, "responses">, requestId: string): RequestResponse[] {
  return [...store.responses.by("requestId", requestId)].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}
