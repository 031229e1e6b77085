import { viewAllConversationsLabel } from "~/domain/count-labels";
import { Link } from "@remix-run/react";
import { ChatIcon } from "~/components/icons";
import { AgentAvatar } from "~/components/agent-avatar";
import { centralClock, conversationPath, type ConversationListItem } from "~/domain/messages";
import type { DashboardMessages } from "~/domain/messages";
import { MessagesUnavailable } from "./messages-unavailable";
import { UnreadBadge } from "./unread-badge";

type Messages = Omit<DashboardMessages, "conversations"> & { conversations: ConversationListItem[] };

/**
 * The dashboard's Messages card: the newest conversations and the unread total, or the product's
 * "No Messages Yet"; `messages` is null while the database that holds them is out of reach.
 */
export function DashboardMessagesCard({ messages }: { messages: Messages | null }) {
  return (
    <section className="card" aria-labelledby="dashboard-messages-title">
      <div className="flex items-center justify-between gap-3">
        <h2 id="dashboard-messages-title" className="flex items-center gap-2 text-lg font-bold text-slate-900">
          <ChatIcon className="h-5 w-5 text-brand-700" />
          Messages
        </h2>
        {messages && messages.unreadTotal > 0 ? (
          <span className="rounded-full bg-accent-500 px-2.5 py-0.5 text-xs font-bold text-slate-900">{messages.unreadTotal} unread</span>
        ) : null}
      </div>
      {messages ? <Conversations {...messages} /> : <MessagesUnavailable className="mt-4" />}
    </section>
  );
}

function Conversations({ conversations, conversationCount, now }: Messages) {
  const clock = centralClock(new Date(now));
  return (
    <>
      {conversations.length === 0 ? (
        <div className="mt-6 flex flex-col items-center gap-2 py-4 text-center">
          <ChatIcon className="h-10 w-10 text-slate-300" />
          <p className="font-semibold text-slate-800">No Messages Yet</p>
          <p className="text-sm text-slate-600">Reach out to an agent about a request or from the directory.</p>
          <div className="mt-3 flex flex-wrap justify-center gap-3">
            <Link to="/referral-requests" className="btn-primary">
              Browse Requests
            </Link>
            <Link to="/directory" className="btn-outline">
              Browse Agents
            </Link>
          </div>
        </div>
      ) : (
        <>
          <ul className="mt-4 divide-y divide-slate-100">
            {conversations.map((conversation) => (
              <li key={conversation.conversationId}>
                <Link
                  to={conversationPath(conversation.conversationId)}
                  className="-mx-2 flex items-center gap-3 rounded-lg px-2 py-3 hover:bg-slate-50"
                >
                  <AgentAvatar fullName={conversation.partner.fullName} photoUrl={conversation.partner.photoUrl} size="xs" decorative />
                  <span className="min-w-0 flex-1">
                    <span className="flex items-baseline justify-between gap-2">
                      <span className={`truncate ${conversation.unread > 0 ? "font-bold" : "font-semibold"} text-slate-900`}>
                        {conversation.partner.fullName}
                      </span>
                      <time dateTime={conversation.lastAt} className="shrink-0 text-xs text-slate-500">
                        {clock.listTime(conversation.lastAt)}
                      </time>
                    </span>
                    <span className="flex items-center justify-between gap-2">
                      <span className="truncate text-sm text-slate-600">
                        {conversation.lastFromMe ? "You: " : ""}
                        {conversation.preview}
                      </span>
                      <UnreadBadge count={conversation.unread} />
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Link to="/messages" className="btn-outline mt-4 w-full sm:w-auto">
            {conversationCount > conversations.length ? viewAllConversationsLabel(conversationCount) : "Open Messages"}
          </Link>
        </>
      )}
    </>
  );
}
