import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isSafeRedirectPath } from "~/domain/redirect";
import { MARK_KINDS, type MarkKind } from "~/domain/workbook";
import { tooManyInit, tooManyMessage } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { setMark } from "~/server/requests/marks.server";
import { findRequestFor, notFound } from "~/server/requests/queries.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

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
  const { store } = context.services;
  const found = findRequestFor(store, params.id ?? "", member);
  if (!found) throw notFound();
  const form = await request.formData();
  const kind = markKind(form.get("kind"));
  if (!kind) return Response.json({ error: "Unknown mark" }, { status: 400 });
  const on = kind === "interested" || form.get("on") !== "false";
  const back = form.get("redirectTo");
  const allowed = limitMemberWrite(context, "mark", member);
  if (!allowed.allowed) {
    const error = tooManyMessage(WRITE_NAMES.mark, allowed.retryAfterSeconds);
    // A plain form (no script) has no page to return to with the message: the browser shows it as text.
    if (isSafeRedirectPath(back)) return new Response(error, tooManyInit(allowed.retryAfterSeconds));
    return Response.json({ error }, tooManyInit(allowed.retryAfterSeconds));
  }
  await setMark(store, { agentEmail: member.email, requestId: found.id, kind, on, now: new Date() });
  if (isSafeRedirectPath(back)) return redirect(back);
  return Response.json({ requestId: found.id, kind, on });
}
