import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isSafeRedirectPath, safeRedirectPath } from "~/domain/redirect";
import { MARK_KINDS, type MarkKind } from "~/domain/workbook/tabs";
import { tooManyInit, tooManyMessage } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { readForm } from "~/server/forms.server";
import { setInterestedOrSaved } from "~/server/referral-requests/interested-and-saved.server";
import { notFound } from "~/server/http.server";
import { findRequestFor, REQUEST_NOT_FOUND } from "~/server/referral-requests/queries.server";
import { escapeHtml } from "~/server/mail/html.server";
import { StoreError } from "~/server/store/store.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

const MARK_FAILED_MESSAGE = "Your choice could not be saved just now. Please try again in a moment.";

function markKind(value: FormDataEntryValue | null): MarkKind | null {
  return MARK_KINDS.find((kind) => kind === value) ?? null;
}

/**
 * Sets a member's Interested or Save mark on a request (`kind`, and `on` = "true" or
 * "false"). Interested is only ever turned on. A plain form sends `redirectTo`, the
 * page to return to; the dashboard's script leaves it out and gets the marks back.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const found = findRequestFor(context.services, params.id ?? "", member);
  if (!found) throw notFound(REQUEST_NOT_FOUND);
  const { formData: form, refusal } = await readForm(request);
  if (refusal) return Response.json({ error: refusal.message }, { status: refusal.status });
  const kind = markKind(form.get("kind"));
  if (!kind) return Response.json({ error: "Unknown mark" }, { status: 400 });
  const on = kind === "interested" || form.get("on") !== "false";
  const back = form.get("redirectTo");
  const backPath = isSafeRedirectPath(back) ? safeRedirectPath(back) : null;
  const allowed = limitMemberWrite(context, "mark", member);
  if (!allowed.allowed) {
    return markRefused(backPath, tooManyMessage(WRITE_NAMES.mark, allowed.retryAfterSeconds), tooManyInit(allowed.retryAfterSeconds));
  }
  try {
    await setInterestedOrSaved(context.services, { agentEmail: member.email, requestId: found.id, kind, on, now: new Date() });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    console.error(`Mark ${kind} on request ${found.id} not saved:`, error);
    return markRefused(backPath, MARK_FAILED_MESSAGE, { status: 503 });
  }
  if (backPath) return redirect(backPath);
  return Response.json({ requestId: found.id, kind, on });
}

/**
 * The mark was not stored (the member's write limit, the spreadsheet's quota, an
 * outage). The script gets the message to show beside the button; a plain form,
 * which has no page of its own to return to here, gets a short page with the
 * message and a way back.
 */
function markRefused(back: string | null, message: string, init: ResponseInit): Response {
  if (back === null) return Response.json({ error: message }, init);
  const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Not saved</title><p role="alert">${escapeHtml(message)}</p><p><a href="${escapeHtml(back)}">Go back</a></p></html>`;
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(page, { ...init, headers });
}
