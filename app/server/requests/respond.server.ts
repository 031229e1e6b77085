import type { FormKey } from "~/domain/form-key-text";
import { shouldNotify } from "~/domain/messages";
import { wantsMail } from "~/domain/notifications";
import { isLive } from "~/domain/referral-requests/expiry";
import type { Agent, ReferralRequest, RequestResponse } from "~/domain/workbook/tabs";
import type { Mail } from "../mail/mailer.server";
import { responseMail } from "../mail/request-mail.server";
import { withUnsubscribe } from "../mail/unsubscribe.server";
import type { Services } from "../services.server";
import { hiddenAuthorsFor, hiddenItemIds } from "../moderation/visibility.server";
import { mayBeStored, rowIdFor } from "../form-keys.server";
import { responseCount } from "./views.server";

export type RespondResult =
  | { ok: true; response: RequestResponse }
  /** closed: deleted or expired; own: members do not answer their own requests. */
  | { ok: false; reason: "closed" | "own" | "missing" };

type RespondServices = Pick<Services, "store" | "mailer" | "writeQueues" | "sendClaims" | "config">;

/**
 * Stores a response in the Responses tab, writes the request's count of responses
 * and mails the poster (unless they turned response mails off), at most once per request every 10 minutes. Resolves once the response is stored; a count or mail that fails after
 * that is logged, since the response itself is kept and must not be sent twice.
 * Rejects (nothing stored) when the response cannot be written.
 */
export async function respondToRequest(
  services: RespondServices,
  options: {
    requestId: string;
    member: Agent;
    message: string;
    /** The form's key: a response sent again after a lost answer is stored once (docs/decisions/0032). */
    formKey?: FormKey;
    now: Date;
    link: string;
    /** For the mail's settings and unsubscribe links when APP_URL is not set. */
    request?: Request;
    log?: Pick<Console, "error">;
  },
): Promise<RespondResult> {
  const { store, mailer } = services;
  const { requestId, member, message, formKey, now, link, log = console } = options;
  const request = store.requests.get(requestId);
  if (!request) return { ok: false, reason: "missing" };
  if (request.agentEmail === member.email) return { ok: false, reason: "own" };
  if (!isLive(request, now)) return { ok: false, reason: "closed" };

  const response = await store.responses.insertOnce(
    {
      id: rowIdFor(member.email, formKey),
      requestId: request.id,
      fromEmail: member.email,
      fromName: member.fullName,
      toEmail: request.agentEmail,
      message,
      createdAt: now.toISOString(),
    },
    mayBeStored(formKey),
  );
  try {
    await recountResponses(services, request.id);
  } catch (error) {
    log.error(`Response ${response.id} stored, but the count of request ${request.id} was not updated:`, error);
  }
  const mail = posterMail(services, request, responseMail({ request, responder: member, message, link, sentAt: now }), options);
  try {
    if (mail) await notifyPoster(services, request.id, now, () => mailer.send(mail), log);
  } catch (error) {
    log.error(`Response ${response.id} stored, but the mail to the poster failed:`, error);
  }
  return { ok: true, response };
}

/**
 * The response mail as the poster gets it, with the unsubscribe footer; null when they
 * turned response mails off, or the poster is no longer a member to mail.
 */
function posterMail(
  { store, config }: RespondServices,
  request: ReferralRequest,
  mail: Mail,
  { now, request: httpRequest }: { now: Date; request?: Request },
): Mail | null {
  const poster = store.agents.by("email", request.agentEmail)[0];
  if (!poster || !wantsMail(poster, "responses")) return null;
  return withUnsubscribe(mail, {
    config,
    recipient: poster,
    kind: "responses",
    reason: "a member responded to your request and you have response mails on",
    request: httpRequest,
    now,
  });
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

/**
 * The responses to a request its owner may read, newest first (only the owner is shown
 * them): not those staff hid, nor those of suspended agents or members blocked either way.
 */
export function responsesTo(services: Pick<Services, "store">, requestId: string, owner: Pick<Agent, "email">): RequestResponse[] {
  const hidden = hiddenItemIds(services, "response");
  const hiddenAuthors = hiddenAuthorsFor(services, owner);
  return services.store.responses
    .by("requestId", requestId)
    .filter((response) => !hidden.has(response.id) && !hiddenAuthors.has(response.fromEmail))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}
