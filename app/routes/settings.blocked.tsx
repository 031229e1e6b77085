import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AgentAvatar } from "~/components/agent-avatar";
import { BlockButton } from "~/components/block-button";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SettingsPageTop } from "~/components/settings-page-top";
import { agentIdOf } from "~/domain/agent-id";
import { AGENT_NOT_FOUND, agentProfilePath } from "~/domain/directory-cards";
import { photoSource } from "~/domain/member-profile";
import { CANNOT_BLOCK_SELF } from "~/domain/moderation";
import { PRODUCT_NAME } from "~/domain/product";
import { safeRedirectPath } from "~/domain/redirect";
import { relativeTime } from "~/domain/relative-time";
import { passRetryAfter, tooManyInit, tooManyMessage } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { readForm } from "~/server/forms.server";
import { notFound } from "~/server/http.server";
import { activeBlocksBy, setBlock } from "~/server/moderation/blocks.server";
import { StoreError } from "~/server/store/store.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Blocked Members | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

const SETTINGS_PATH = "/settings/blocked";
const BLOCK_FAILED = "Your change could not be saved just now. Please try again in a moment.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { store } = context.services;
  const now = new Date();
  return {
    blocked: activeBlocksBy(context.services, member).flatMap((block) => {
      const agent = store.agents.by("email", block.blockedEmail)[0];
      if (!agent) return [];
      return [
        {
          agentId: agent.id,
          fullName: agent.fullName.trim() || agent.email,
          photoUrl: photoSource(agent.photoUrl),
          profileHref: agent.status === "approved" ? agentProfilePath(agentIdOf(agent)) : null,
          blockedAgo: relativeTime(block.updatedAt ?? block.createdAt, now),
        },
      ];
    }),
  };
}

/**
 * Blocks or unblocks another member (`intent`, `agent`: their row id), for the member
 * logged in only: the blocker is always the session's member. A plain form from a
 * profile, a conversation or this page; `back` is where it returns.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { formData, refusal } = await readForm(request);
  if (refusal) return data({ error: refusal.message }, { status: refusal.status });
  const intent = formData.get("intent");
  const agentId = formData.get("agent");
  if ((intent !== "block" && intent !== "unblock") || typeof agentId !== "string")
    return data({ error: "Unknown change" }, { status: 400 });
  const other = context.services.store.agents.get(agentId);
  // Only approved members can be blocked; a block on anyone stays removable.
  if (!other || (intent === "block" && other.status !== "approved")) throw notFound(AGENT_NOT_FOUND);
  if (other.id === member.id) return data({ error: CANNOT_BLOCK_SELF }, { status: 400 });
  // Counted with the other small changes (marks): a block is one row, like a mark.
  const allowed = limitMemberWrite(context, "mark", member);
  if (!allowed.allowed)
    return data({ error: tooManyMessage(WRITE_NAMES.mark, allowed.retryAfterSeconds) }, tooManyInit(allowed.retryAfterSeconds));
  try {
    await setBlock(context.services, { blocker: member, blocked: other, on: intent === "block", now: new Date() });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    console.error(`Block of agent ${other.id} by ${member.id} not saved:`, error);
    return data({ error: BLOCK_FAILED }, { status: 503 });
  }
  return redirect(safeRedirectPath(formData.get("back"), SETTINGS_PATH));
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function BlockedMembers() {
  const { blocked } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-12">
      <SettingsPageTop
        title="Blocked Members"
        intro="You and the members you block don't see each other's requests or responses and can't message each other."
      />
      {failed ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {failed.error}
        </p>
      ) : null}
      <section className="card mt-8" aria-labelledby="blocked-title">
        <h2 id="blocked-title" className="text-lg font-bold text-slate-900">
          Blocked ({blocked.length})
        </h2>
        {blocked.length === 0 ? (
          <p className="mt-3 text-slate-600">You haven&apos;t blocked anyone. Block a member from their profile or your conversation.</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100">
            {blocked.map((agent) => (
              <li key={agent.agentId} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
                <AgentAvatar fullName={agent.fullName} photoUrl={agent.photoUrl} size="xs" decorative />
                <div className="min-w-0 flex-1">
                  {agent.profileHref ? (
                    <Link to={agent.profileHref} className="font-semibold wrap-anywhere text-slate-900 hover:underline">
                      {agent.fullName}
                    </Link>
                  ) : (
                    <p className="font-semibold wrap-anywhere text-slate-900">{agent.fullName}</p>
                  )}
                  <p className="text-sm text-slate-600">Blocked {agent.blockedAgo.toLowerCase()}</p>
                </div>
                <BlockButton agentId={agent.agentId} agentName={agent.fullName} blocked back={SETTINGS_PATH} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
