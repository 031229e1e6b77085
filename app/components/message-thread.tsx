import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { ChatIcon } from "~/components/icons";
import { AgentAvatar } from "~/components/agent-avatar";
import { MessagesUnavailable } from "~/components/messages-unavailable";
import { pageHref } from "~/components/pagination";
import { centralClock, type CentralClock, type Partner, type ThreadMessage } from "~/domain/messages";
import { reportPath } from "~/domain/moderation";

type Props = {
  partner: Partner;
  /** One page of the thread, oldest first: page 1 is the newest messages; null while the database is out of reach. */
  messages: ThreadMessage[] | null;
  threadPage: number;
  threadPageCount: number;
  now: Date;
  /** The message box, or why there is none. */
  composer: ReactNode;
  /** Controls for the conversation beside the partner's name (the block button). */
  actions?: ReactNode;
};

/** The open conversation: who it is with, its messages (newest at the bottom) and the message box. */
export function MessageThread({ partner, messages, threadPage, threadPageCount, now, composer, actions }: Props) {
  const clock = centralClock(now);
  return (
    <>
      <ThreadHeader partner={partner} actions={actions} />
      {/* column-reverse starts the scroll at the bottom, at the newest message, without any script; a log announces new lines. */}
      <div
        role="log"
        aria-label="Messages"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard to be scrolled.
        tabIndex={0}
        className="flex min-h-0 flex-1 flex-col-reverse overflow-y-auto bg-slate-50 px-3 py-4 sm:px-5"
      >
        {messages === null ? (
          <MessagesUnavailable className="m-auto max-w-sm" />
        ) : messages.length === 0 ? (
          <p className="m-auto max-w-xs text-center text-sm text-slate-600">
            This is the start of your conversation with {partner.fullName}. Say hello!
          </p>
        ) : (
          <div>
            {threadPage < threadPageCount ? <ThreadPageLink page={threadPage + 1} label="Earlier messages" /> : null}
            <ol className="space-y-3">
              {messages.map((message) => (
                <MessageBubble key={message.id} message={message} clock={clock} />
              ))}
            </ol>
            {threadPage > 1 ? <ThreadPageLink page={threadPage - 1} label="Later messages" /> : null}
          </div>
        )}
      </div>
      {composer}
    </>
  );
}

/** A long thread shows its newest messages; these links page back through the rest, without any script. */
function ThreadPageLink({ page, label }: { page: number; label: string }) {
  const { pathname, search } = useLocation();
  return (
    <p className="my-3 text-center">
      <Link to={pageHref(pathname, search, page, "threadPage")} className="text-sm font-semibold text-brand-700 hover:underline">
        {label}
      </Link>
    </p>
  );
}

function ThreadHeader({ partner, actions }: { partner: Partner; actions: ReactNode }) {
  const details = [partner.brokerage.trim(), [partner.city.trim(), partner.state.trim()].filter(Boolean).join(", ")].filter(Boolean);
  return (
    // On a phone the actions take a row of their own, so the name and brokerage keep the whole width.
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 px-3 py-3 sm:flex-nowrap sm:px-4">
      <Link
        to="/messages"
        className="grid h-10 w-10 shrink-0 place-items-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
        aria-label="Back to conversations"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-6 w-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M15 5l-7 7 7 7" />
        </svg>
      </Link>
      <AgentAvatar fullName={partner.fullName} photoUrl={partner.photoUrl} size="xs" decorative />
      <div className="min-w-0 flex-1">
        <h2 className="font-bold text-slate-900">{partner.fullName}</h2>
        {details.length > 0 ? <p className="text-sm text-slate-600">{details.join(" · ")}</p> : null}
      </div>
      <div className="flex w-full shrink-0 items-center justify-end gap-4 sm:w-auto">
        {partner.profileHref ? (
          <Link to={partner.profileHref} className="text-sm font-semibold text-brand-700 hover:underline">
            View Profile
          </Link>
        ) : null}
        {actions}
      </div>
    </div>
  );
}

function MessageBubble({ message, clock }: { message: ThreadMessage; clock: CentralClock }) {
  const mine = message.fromMe;
  return (
    <li className={`flex flex-col ${mine ? "items-end" : "items-start"}`}>
      <p className="sr-only">{mine ? "You wrote:" : "They wrote:"}</p>
      {/* Shown as typed: React escapes the text, pre-wrap keeps its line breaks, and nothing turns into a link. */}
      <p
        className={`max-w-[85%] rounded-2xl px-4 py-2.5 wrap-anywhere whitespace-pre-wrap sm:max-w-[75%] ${
          mine ? "rounded-br-md bg-brand-700 text-white" : "rounded-bl-md border border-slate-200 bg-white text-slate-900"
        }`}
      >
        {message.text}
      </p>
      <p className="mt-1 flex gap-3 px-1 text-xs text-slate-500">
        <time dateTime={message.createdAt}>{clock.messageTime(message.createdAt)}</time>
        {message.byEmail ? <span>by e-mail</span> : null}
        {mine ? null : (
          <Link to={reportPath("message", message.id)} className="font-semibold text-red-700 hover:underline">
            Report<span className="sr-only"> this message</span>
          </Link>
        )}
      </p>
    </li>
  );
}

/** The thread pane when no conversation is open (desktop only: phones show the list instead). */
export function NoConversationOpen({ hasConversations }: { hasConversations: boolean }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
      <ChatIcon className="h-12 w-12 text-slate-300" />
      <p className="font-semibold text-slate-800">{hasConversations ? "Select a conversation" : "No messages yet"}</p>
      <p className="max-w-sm text-sm text-slate-600">
        {hasConversations
          ? "Choose a conversation from the list, or find another agent to write to."
          : "Your conversations with other agents will show here."}
      </p>
      {/* With no conversation at all, the list beside this pane already offers Browse Agents. */}
      {hasConversations ? (
        <Link to="/directory" className="btn-primary mt-2">
          Browse Agents
        </Link>
      ) : null}
    </div>
  );
}
