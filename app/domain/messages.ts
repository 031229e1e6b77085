/**
 * Direct messages between members (docs/product.md#messages): the conversation list and unread
 * counts built from Messages rows, the notification mail's preview and throttle, and how
 * times read in the thread. The message box's rule is in `message-box.ts`: it is a zod
 * schema, and the dashboard, which shows conversations but no message box, loads no zod.
 */
import { CONVERSATION_ID_SEPARATOR, conversationIdFor } from "./conversation";
import { pageWindow } from "./directory-search";
import { formatPhone } from "./phone";
import type { Message } from "./workbook/tabs";

/** The notification mail quotes this many characters of the message. */
const NOTIFICATION_PREVIEW_LENGTH = 100;
/** A member gets at most one mail per conversation in this time, so a quick exchange does not flood an inbox. */
export const NOTIFICATION_INTERVAL_MS = 10 * 60 * 1000;

export const NO_CONVERSATION = "Choose a conversation first.";
export const CANNOT_RECEIVE = "This agent can no longer receive messages.";
export const SEND_FAILED = "Your message could not be sent. Please try again.";
/** Said where the messages would be while the database that holds them is out of reach (a restart): the rest of the page serves. */
export const MESSAGES_UNAVAILABLE = "Messages are unavailable for a moment. Please try again shortly.";

/** The Share My Contact Info message: what another agent needs to reach the member outside the site. */
export function contactInfoText(member: { fullName: string; email: string; phone: string; brokerage: string }): string {
  return [
    "Here is my contact info:",
    `Name: ${member.fullName.trim()}`,
    `Email: ${member.email}`,
    `Phone: ${formatPhone(member.phone) || "Not provided"}`,
    `Brokerage: ${member.brokerage.trim() || "Independent Agent"}`,
  ].join("\n");
}

/** One line of at most `length` characters: whitespace runs become one space, a cut is marked with an ellipsis. */
export function previewText(text: string, length = NOTIFICATION_PREVIEW_LENGTH): string {
  const flat = text.replace(/\s+/g, " ").trim();
  // By code points, so an emoji is never cut in half.
  const characters = Array.from(flat);
  if (characters.length <= length) return flat;
  return `${characters.slice(0, length).join("").trimEnd()}…`;
}

/**
 * Whether a new message may be mailed to its recipient, given when they were last
 * mailed about this conversation. A time further in the future than the interval is
 * not a clock difference between servers but a bad cell, and does not block mail forever.
 */
export function shouldNotify(lastNotifiedAt: string | undefined, now: Date): boolean {
  if (lastNotifiedAt === undefined) return true;
  const elapsed = now.getTime() - Date.parse(lastNotifiedAt);
  if (Number.isNaN(elapsed)) return true;
  return elapsed >= NOTIFICATION_INTERVAL_MS || elapsed <= -NOTIFICATION_INTERVAL_MS;
}

/**
 * The other agent's store id in a conversation the member belongs to, or null when
 * the id is not one of the member's conversations (the only ids a member may open).
 */
export function partnerIdIn(conversationId: string, memberId: string): string | null {
  const prefix = `${memberId}${CONVERSATION_ID_SEPARATOR}`;
  const suffix = `${CONVERSATION_ID_SEPARATOR}${memberId}`;
  const candidates = [
    conversationId.startsWith(prefix) ? conversationId.slice(prefix.length) : null,
    conversationId.endsWith(suffix) ? conversationId.slice(0, -suffix.length) : null,
  ];
  return (
    candidates.find(
      (other): other is string =>
        other !== null && other.trim() !== "" && other !== memberId && conversationIdFor(memberId, other) === conversationId,
    ) ?? null
  );
}

/**
 * Oldest first; rows written in the same millisecond keep a stable order, by id. Compared
 * code unit by code unit, as the database's "C" collation compares them, so a thread reads
 * in the same order from either.
 */
export function byTime(a: Message, b: Message): number {
  return compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Messages to the member after the time they last read the conversation up to. */
export function unreadCount(messages: readonly Message[], memberEmail: string, lastReadAt: string | undefined): number {
  return messages.filter((message) => message.toEmail === memberEmail && (lastReadAt === undefined || message.createdAt > lastReadAt))
    .length;
}

/**
 * How far a member who was shown `thread` (oldest first) has read it: up to the newest
 * message sent to them. Only those count as unread, so the member's own messages never
 * move the position, and a sender reloading the thread after each send costs no write.
 */
export function readPositionAfter(thread: readonly Message[], memberEmail: string): string | undefined {
  return thread.findLast((message) => message.toEmail === memberEmail)?.createdAt;
}

/**
 * The messages no page shows, from the staff tabs: those staff hid (by id, from Reports) and
 * those of suspended agents (by sender, from Agents).
 */
export type LeftOut = { readonly ids: readonly string[]; readonly senders: readonly string[] };

export type ConversationSummary = {
  conversationId: string;
  /** The other agent's e-mail as the newest message has it. */
  partnerEmail: string;
  lastMessage: Message;
  unread: number;
};

/**
 * The member's conversations, newest activity first, from the messages they sent or
 * received. `lastReadAt` says how far the member has read each conversation.
 */
export function summariseConversations(
  messages: readonly Message[],
  memberEmail: string,
  lastReadAt: (conversationId: string) => string | undefined,
): ConversationSummary[] {
  const byConversation = new Map<string, Message[]>();
  for (const message of messages) {
    if (message.fromEmail !== memberEmail && message.toEmail !== memberEmail) continue;
    const thread = byConversation.get(message.conversationId);
    if (thread) thread.push(message);
    else byConversation.set(message.conversationId, [message]);
  }
  const summaries = [...byConversation].map(([conversationId, thread]) => {
    const lastMessage = thread.reduce((newest, message) => (byTime(message, newest) > 0 ? message : newest));
    return {
      conversationId,
      partnerEmail: lastMessage.fromEmail === memberEmail ? lastMessage.toEmail : lastMessage.fromEmail,
      lastMessage,
      unread: unreadCount(thread, memberEmail, lastReadAt(conversationId)),
    };
  });
  return summaries.sort((a, b) => byTime(b.lastMessage, a.lastMessage));
}

/** What a member sees of the other agent in a conversation: nothing the page does not show. */
export type Partner = {
  fullName: string;
  /** Already checked as safe to load (`photoSource`). */
  photoUrl: string | null;
  brokerage: string;
  city: string;
  state: string;
  /** Their profile page; null when the agent is no longer an approved member. */
  profileHref: string | null;
  /** Only approved agents can be sent messages. */
  canReceive: boolean;
};

/** A row of the conversation list, as the page and the dashboard card show it. */
export type ConversationListItem = {
  conversationId: string;
  partner: Partner;
  preview: string;
  lastAt: string;
  lastFromMe: boolean;
  unread: number;
};

/** A page of a thread as a member sees it, and what the page needs to know of the whole thread. */
export type ThreadView = {
  /** The page's messages, oldest first. */
  messages: Message[];
  page: number;
  pageCount: number;
  /** Messages in the whole thread. */
  total: number;
  /** The thread's first message: whom it is with when the partner's row is gone. */
  oldest: Message | undefined;
  /** How far the member has read once shown the thread (`readPositionAfter` over the whole thread). */
  readUpTo: string | undefined;
};

/** `byEmail`: a reply to a notification mail (docs/decisions/0071), marked beside its time. */
export type ThreadMessage = { id: string; text: string; createdAt: string; fromMe: boolean; byEmail: boolean };

/** Conversations on one page of the Messages list, and messages on one page of a thread. */
export const CONVERSATION_PAGE_SIZE = 20;
const THREAD_PAGE_SIZE = 50;

/** A conversation's address; from a later page of the list, the list stays on that page beside it. */
export function conversationPath(conversationId: string, listPage = 1): string {
  const params = new URLSearchParams({ conversation: conversationId });
  if (listPage > 1) params.set("page", String(listPage));
  return `/messages?${params}`;
}

/** Where page `requestedPage` of a thread of `total` messages starts and ends, counted from the newest. */
export function threadWindow(total: number, requestedPage: number) {
  return pageWindow(total, requestedPage, THREAD_PAGE_SIZE);
}

/**
 * Page `requestedPage` of a thread held oldest first, counted from the newest end: page 1
 * holds the newest messages, page 2 the ones before them; each page stays oldest first.
 */
export function threadPage<T>(messages: readonly T[], requestedPage: number): { messages: T[]; page: number; pageCount: number } {
  const window = threadWindow(messages.length, requestedPage);
  return {
    messages: messages.slice(messages.length - window.end, messages.length - window.start),
    page: window.page,
    pageCount: window.pageCount,
  };
}

/**
 * The markets are Texas and Oklahoma, so times read in Central time. Only the numbers come
 * from the formatter (in en-US's month/day/year, hour:minute order, on a 24-hour clock); the
 * month names and the 12-hour clock are written here, so the server's page and the browser's
 * hydration print the same characters whatever their ICU version, and the formatter's plain
 * `format` costs a third of `formatToParts` (a thread page reads a hundred times).
 */
const centralNumbers = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Chicago",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  hourCycle: "h23",
});

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

type TimeParts = { year: string; month: string; day: string; clock: string };

function partsOf(iso: string | Date): TimeParts {
  const [month = 1, day = 1, year = 0, hour = 0, minute = 0] = (centralNumbers.format(new Date(iso)).match(/\d+/g) ?? []).map(Number);
  return {
    year: String(year),
    month: MONTH_NAMES[month - 1] ?? "",
    day: String(day),
    clock: `${hour % 12 || 12}:${String(minute).padStart(2, "0")} ${hour < 12 ? "AM" : "PM"}`,
  };
}

function dateOf(time: TimeParts, now: TimeParts): string {
  return time.year === now.year ? `${time.month} ${time.day}` : `${time.month} ${time.day}, ${time.year}`;
}

function isSameDay(time: TimeParts, now: TimeParts): boolean {
  return time.year === now.year && time.month === now.month && time.day === now.day;
}

/** Times read against one moment: a page's lists read every time against the same "now". */
export type CentralClock = {
  /** For the conversation list: "2:05 PM" today, "Mar 3" this year, "Mar 3, 2025" before. */
  listTime(iso: string): string;
  /** For a message in the thread: "2:05 PM" today, "Mar 3, 2:05 PM" before. */
  messageTime(iso: string): string;
};

/** Today's date in Central time is worked out once for a whole list, not once per time shown: the formatter is the costly part. */
export function centralClock(now: Date): CentralClock {
  const today = partsOf(now);
  return {
    listTime(iso) {
      const time = partsOf(iso);
      return isSameDay(time, today) ? time.clock : dateOf(time, today);
    },
    messageTime(iso) {
      const time = partsOf(iso);
      return isSameDay(time, today) ? time.clock : `${dateOf(time, today)}, ${time.clock}`;
    },
  };
}

/** The dashboard's Messages card: the newest few conversations and the member's totals. */
export type DashboardMessages = {
  conversations: ConversationListItem[];
  /** Unread messages in all the member's conversations, not only the ones shown. */
  unreadTotal: number;
  /** How many conversations the member has in all. */
  conversationCount: number;
  /** The clock the card's times are read against, so the page and its hydration agree. */
  now: string;
};
