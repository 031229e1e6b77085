import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isSafeRedirectPath, safeRedirectPath } from "~/domain/redirect";
import { MARK_KINDS, type MarkKind } from "~/domain/workbook";
import { requireMember } from "~/server/auth/session.server";
import { readForm } from "~/server/forms.server";
import { setMark } from "~/server/requests/marks.server";
import { findRequestFor, notFound } from "~/server/requests/queries.server";

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
  const { formData: form, refusal } = await readForm(request);
  if (refusal) return Response.json({ error: refusal.message }, { status: refusal.status });
  const kind = markKind(form.get("kind"));
  if (!kind) return Response.json({ error: "Unknown mark" }, { status: 400 });
  const on = kind === "interested" || form.get("on") !== "false";
  await setMark(store, { agentEmail: member.email, requestId: found.id, kind, on, now: new Date() });
  const back = form.get("redirectTo");
  if (isSafeRedirectPath(back)) return redirect(safeRedirectPath(back));
  return Response.json({ requestId: found.id, kind, on });
}
