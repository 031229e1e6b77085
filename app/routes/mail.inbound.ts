import { createHash, timingSafeEqual } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { notFound } from "~/server/http.server";
import { INBOUND_MAX_BYTES, readInboundMail } from "~/server/mail/inbound-parse.server";
import { receiveReply } from "~/server/messages/reply-by-mail.server";
import { StoreError } from "~/server/store/store.server";

/*
 * SendGrid's Inbound Parse webhook (docs/decisions/0071): a reply to a notification mail,
 * posted by SendGrid with the webhook's password as basic auth. Every mail it could read is
 * answered 200, stored or refused, since SendGrid posts again for three days after anything
 * else; only a post without the password (401), that is no multipart form (400), or that came
 * while the store could not take it (503: the post again is what keeps the reply) is not.
 * Off (404) unless INBOUND_DOMAIN and INBOUND_SECRET are set.
 */

export async function action({ request, context }: ActionFunctionArgs) {
  const { inbound } = context.services.config;
  if (!inbound) throw notFound();
  if (!hasPassword(request, inbound.secret))
    return new Response("Unauthorized", { status: 401, headers: { "WWW-Authenticate": 'Basic realm="inbound mail"' } });
  const read = await readInboundMail(request);
  if (!read.ok && read.reason === "too-large") {
    console.warn(`Inbound mail: dropped a post over the ${INBOUND_MAX_BYTES / (1024 * 1024)} MB limit, unread; nothing stored.`);
    return answer("Dropped: over the size limit.");
  }
  if (!read.ok) {
    console.warn("Inbound mail: refused a post that is not a readable multipart form; nothing stored.");
    return new Response("Not a readable Inbound Parse post.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  try {
    const outcome = await receiveReply(context.services, read.mail, request);
    return answer(outcome.stored ? "Stored." : `Not stored: ${outcome.reason}.`);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    console.error("Inbound mail: the store could not take the reply now; answered 503 for SendGrid to post it again.", error);
    return new Response("The store is out of reach; post again later.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "60" },
    });
  }
}

function answer(text: string): Response {
  return new Response(text, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** Basic auth with any user name and the webhook's password, compared in constant time. */
function hasPassword(request: Request, secret: string): boolean {
  const header = request.headers.get("Authorization") ?? "";
  if (!/^basic /i.test(header)) return false;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const password = decoded.slice(decoded.indexOf(":") + 1);
  const digestOf = (value: string) => createHash("sha256").update(value).digest();
  return decoded.includes(":") && timingSafeEqual(digestOf(password), digestOf(secret));
}
