import { Link } from "@remix-run/react";
import { ChatIcon } from "~/components/icons";
import { AgentAvatar } from "~/components/agent-avatar";
import { centralClock, conversationPath, type CentralClock, type ConversationListItem } from "~/domain/messages";
import { MessagesUnavailable } from "./messages-unavailable";
import { Pagination } from "./pagination";
import { UnreadBadge } from "./unread-badge";

type Props = {
  conversations: ConversationListItem[];
  /** The database that holds them is out of reach for a moment: the list says so instead. */
  unavailable: boolean;
  /** A conversation opened with `?to=` that has no message yet: listed first, at that address. */
  draft: { item: ConversationListItem; href: string } | null;
  activeId: string | null;
  /** Which page of the member's conversations this is, of how many. */
  page: number;
  pageCount: number;
  now: Date;
  className: string;
};

export function MessageConversationList({ conversations, unavailable, draft, activeId, page, pageCount, now, className }: Props) {
  const empty = conversations.length === 0 && draft === null;
  const clock = centralClock(now);
  return (
    <section aria-labelledby="conversations-title" className={`flex-col border-slate-200 md:border-r ${className}`}>
      <h2 id="conversations-title" className="border-b border-slate-200 px-4 py-3 text-sm font-bold tracking-wide text-slate-500 uppercase">
        Conversations
      </h2>
      {unavailable ? (
        <MessagesUnavailable className="m-4" />
      ) : empty ? (
        <NoConversations />
      ) : (
        <ul className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto">
          {draft ? (
            <ConversationRow item={draft.item} href={draft.href} active={draft.item.conversationId === activeId} clock={clock} />
          ) : null}
          {conversations.map((item) => (
            <ConversationRow
              key={item.conversationId}
              item={item}
              href={conversationPath(item.conversationId, page)}
              active={item.conversationId === activeId}
              clock={clock}
            />
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} label="Conversation pages" className="border-t border-slate-200 px-2 py-3" />
    </section>
  );
}

function ConversationRow({
  item,
  href,
  active,
  clock,
}: {
  item: ConversationListItem;
  href: string;
  active: boolean;
  clock: CentralClock;
}) {
  const unread = item.unread > 0;
  return (
    <li>
      <Link
        to={href}
        aria-current={active ? "page" : undefined}
        className={`flex items-center gap-3 px-4 py-3 transition-colors ${active ? "bg-brand-50" : "hover:bg-slate-50"}`}
      >
        <AgentAvatar fullName={item.partner.fullName} photoUrl={item.partner.photoUrl} size="sm" decorative />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline justify-between gap-2">
            <span className={`truncate ${unread ? "font-bold text-slate-900" : "font-semibold text-slate-800"}`}>
              {item.partner.fullName}
            </span>
            {item.lastAt ? (
              <time dateTime={item.lastAt} className="shrink-0 text-xs text-slate-600">
                {clock.listTime(item.lastAt)}
              </time>
            ) : null}
          </span>
          <span className="mt-0.5 flex items-center justify-between gap-2">
            <span className={`truncate text-sm ${unread ? "font-semibold text-slate-800" : "text-slate-600"}`}>
              {item.lastFromMe ? "You: " : ""}
              {item.preview}
            </span>
            <UnreadBadge count={item.unread} />
          </span>
        </span>
      </Link>
    </li>
  );
}

function NoConversations() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
      <ChatIcon className="h-10 w-10 text-slate-300" />
      <p className="font-semibold text-slate-800">No conversations yet</p>
      <p className="text-sm text-slate-600">Find an agent in the directory and send them a message.</p>
      <Link to="/directory" className="btn-primary mt-2">
        Browse Agents
      </Link>
    </div>
  );
}
