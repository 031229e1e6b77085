import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { IdempotencyKey } from "~/domain/idempotency-key-text";
import { isLive } from "~/domain/referral-requests/expiry";
import type { Agent, RequestResponse } from "~/domain/workbook/tabs";
import { replyAddressFor } from "../mail/reply-address.server";
import { responseMail } from "../mail/request-mail.server";
import type { Throttle } from "../notifier/notifier.server";
import type { Services } from "../services.server";
import { hiddenAuthorsFor, hiddenItemIds } from "../moderation/visibility.server";
import { mayBeStored, rowIdFor } from "../idempotency-keys.server";
import { recountResponses } from "./response-counts.server";

export type RespondResult =
  | { ok: true; response: RequestResponse }
  /** closed: deleted or expired; own: members do not answer their own requests. */
  | { ok: false; reason: "closed" | "own" | "missing" };

type RespondServices = Pick<Services, "store" | "notifier" | "writeQueues" | "config">;

/**
 * Stores a response in the Responses tab, writes the request's count of responses and
 * queues the poster's mail (sent unless they turned response mails off, at most once per
 * request every 10 minutes). Resolves once the response is stored and counted; a count that
 * fails after that is logged, since the response itself is kept and must not be sent twice.
 * Rejects (nothing stored) when the response cannot be written.
 */
export async function respondToRequest(
  services: RespondServices,
  options: {
    requestId: string;
    member: Agent;
    message: string;
    /** The form's key: a response sent again after a lost answer is stored once (docs/decisions/0032). */
    idempotencyKey?: IdempotencyKey;
    now: Date;
    link: string;
    /** For the mail's settings and unsubscribe links when APP_URL is not set. */
    request?: Request;
    log?: Pick<Console, "error">;
  },
): Promise<RespondResult> {
  const { store, notifier } = services;
  const { requestId, member, message, idempotencyKey, now, link, request: httpRequest, log = console } = options;
  const request = store.requests.get(requestId);
  if (!request) return { ok: false, reason: "missing" };
  if (request.agentEmail === member.email) return { ok: false, reason: "own" };
  if (!isLive(request, now)) return { ok: false, reason: "closed" };

  const response = await store.responses.insertOnce(
    {
      id: rowIdFor(member.email, idempotencyKey),
      requestId: request.id,
      fromEmail: member.email,
      fromName: member.fullName,
      toEmail: request.agentEmail,
      message,
      createdAt: now.toISOString(),
    },
    mayBeStored(idempotencyKey),
  );
  try {
    await recountResponses(services, request.id);
  } catch (error) {
    log.error(`Response ${response.id} stored, but the count of request ${request.id} was not updated:`, error);
  }
  const poster = store.agents.by("email", request.agentEmail)[0];
  // A poster who is no longer a member is not mailed.
  if (poster)
    notifier.enqueue(
      {
        mail: responseMail({
          request,
          responder: member,
          message,
          link,
          sentAt: now,
          replyAddress: replyAddressFor(services.config, poster, member, now),
        }),
        about: `the mail to the poster about response ${response.id}`,
        member: {
          recipient: poster,
          kind: "responses",
          reason: "a member responded to your request and you have response mails on",
          request: httpRequest,
        },
      },
      { now, throttle: responseThrottle(services, request.id) },
    );
  return { ok: true, response };
}

/**
 * The poster's throttle chain for a request's responses: the rule message mails follow
 * (docs/decisions/0005), so thirty responses in a row are one mail, and every response
 * stays on the request's page; the time is stamped in the request's `lastNotifiedAt`.
 */
function responseThrottle({ store }: RespondServices, requestId: string): Throttle {
  return {
    chain: CLAIM_KEYS.response.key(requestId),
    lastNotifiedAt: async () => store.requests.get(requestId)?.lastNotifiedAt,
    stamp: (at) => store.requests.update(requestId, { lastNotifiedAt: at.toISOString() }),
  };
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
