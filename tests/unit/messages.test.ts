import { describe, expect, it } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import { MESSAGE_REQUIRED, MESSAGE_TOO_LONG, messageSchema } from "../../app/domain/message-box";
import {
  centralClock,
  contactInfoText,
  NOTIFICATION_INTERVAL_MS,
  partnerIdIn,
  previewText,
  shouldNotify,
  summariseConversations,
  unreadCount,
} from "../../app/domain/messages";
import type { Message } from "../../app/domain/workbook/tabs";

const me = "me@example.com";
const ann = "ann@example.com";
const bob = "bob@example.com";
const withAnn = conversationIdFor("id-me", "id-ann");
const withBob = conversationIdFor("id-me", "id-bob");

let counter = 0;
function message(conversationId: string, fromEmail: string, toEmail: string, createdAt: string, text = "hi"): Message {
  counter += 1;
  return { id: `m${counter}`, conversationId, fromEmail, toEmail, text, createdAt };
}

describe("summariseConversations", () => {
  const messages = [
    message(withAnn, ann, me, "2026-03-01T10:00:00.000Z", "first from Ann"),
    message(withBob, me, bob, "2026-03-01T11:00:00.000Z", "to Bob"),
    message(withAnn, me, ann, "2026-03-01T12:00:00.000Z", "reply to Ann"),
    message(withAnn, ann, me, "2026-03-01T13:00:00.000Z", "Ann again"),
    // Someone else's conversation: never in my list.
    message(conversationIdFor("id-ann", "id-bob"), ann, bob, "2026-03-01T14:00:00.000Z", "not mine"),
  ];

  it("lists one entry per conversation, the newest activity first, with its last message", () => {
    const list = summariseConversations(messages, me, () => undefined);
    expect(list.map((item) => item.conversationId)).toEqual([withAnn, withBob]);
    expect(list[0]?.lastMessage.text).toBe("Ann again");
    expect(list[0]?.partnerEmail).toBe(ann);
    expect(list[1]?.partnerEmail).toBe(bob);
  });

  it("counts only messages to the member after their read position", () => {
    const unread = (lastRead: string | undefined) => summariseConversations(messages, me, () => lastRead).map((item) => item.unread);
    expect(unread(undefined)).toEqual([2, 0]);
    expect(unread("2026-03-01T10:00:00.000Z")).toEqual([1, 0]);
    expect(unread("2026-03-01T13:00:00.000Z")).toEqual([0, 0]);
  });

  it("reads each conversation's own position", () => {
    const positions = new Map([[withAnn, "2026-03-01T12:30:00.000Z"]]);
    expect(summariseConversations(messages, me, (id) => positions.get(id))[0]?.unread).toBe(1);
  });

  it("has nothing for a member without messages", () => {
    expect(summariseConversations(messages, "nobody@example.com", () => undefined)).toEqual([]);
  });
});

describe("unreadCount", () => {
  it("ignores the member's own messages, however new", () => {
    const thread = [message(withAnn, me, ann, "2026-03-02T00:00:00.000Z"), message(withAnn, ann, me, "2026-03-01T00:00:00.000Z")];
    expect(unreadCount(thread, me, undefined)).toBe(1);
    expect(unreadCount(thread, me, "2026-03-01T00:00:00.000Z")).toBe(0);
  });
});

describe("shouldNotify", () => {
  const now = new Date("2026-03-01T12:00:00.000Z");
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  it("mails when the member was never mailed about the conversation", () => {
    expect(shouldNotify(undefined, now)).toBe(true);
  });

  it("holds mail for 10 minutes after the last one", () => {
    expect(shouldNotify(ago(0), now)).toBe(false);
    expect(shouldNotify(ago(NOTIFICATION_INTERVAL_MS - 1), now)).toBe(false);
    expect(shouldNotify(ago(NOTIFICATION_INTERVAL_MS), now)).toBe(true);
  });

  it("treats a time a little ahead (another server's clock) as recent, a far-future cell as nonsense", () => {
    expect(shouldNotify(ago(-60_000), now)).toBe(false);
    expect(shouldNotify(ago(-NOTIFICATION_INTERVAL_MS), now)).toBe(true);
  });
});

describe("previewText", () => {
  it("keeps short text whole, on one line", () => {
    expect(previewText("Hello\n\n  there")).toBe("Hello there");
  });

  it("cuts at 100 characters with an ellipsis", () => {
    const text = "x".repeat(99) + "yz";
    expect(previewText(text)).toBe(`${"x".repeat(99)}y…`);
    expect(previewText("x".repeat(100))).toBe("x".repeat(100));
  });

  it("never splits an emoji", () => {
    const preview = previewText("😀".repeat(120));
    expect(Array.from(preview)).toHaveLength(101);
    expect(preview.startsWith("😀".repeat(100))).toBe(true);
  });
});

describe("partnerIdIn", () => {
  const id = conversationIdFor("id-me", "id-ann");

  it("names the other agent of a conversation the member is in", () => {
    expect(partnerIdIn(id, "id-me")).toBe("id-ann");
    expect(partnerIdIn(id, "id-ann")).toBe("id-me");
  });

  it("refuses ids of other pairs, unsorted ids and the member alone", () => {
    expect(partnerIdIn(id, "id-bob")).toBeNull();
    expect(partnerIdIn("id-me--id-ann", "id-me")).toBeNull();
    expect(partnerIdIn("id-me--id-me", "id-me")).toBeNull();
    expect(partnerIdIn("id-me--", "id-me")).toBeNull();
    expect(partnerIdIn("id-me", "id-me")).toBeNull();
  });
});

describe("messageSchema", () => {
  const parse = (text: string) => messageSchema.safeParse({ text });

  it("trims the text and stores line breaks as LF", () => {
    expect(parse("  Hi\r\nthere \r\n").data).toEqual({ text: "Hi\nthere" });
  });

  it("refuses blank text with the product's message", () => {
    expect(parse("  \r\n ").error?.issues[0]?.message).toBe(MESSAGE_REQUIRED);
    expect(messageSchema.safeParse({}).error?.issues[0]?.message).toBe(MESSAGE_REQUIRED);
  });

  it("accepts 5,000 characters and refuses more", () => {
    expect(parse("a".repeat(5_000)).success).toBe(true);
    expect(parse("a".repeat(5_001)).error?.issues[0]?.message).toBe(MESSAGE_TOO_LONG);
  });
});

describe("contactInfoText", () => {
  it("gives name, e-mail, formatted phone and brokerage", () => {
    expect(contactInfoText({ fullName: "Dana Reyes", email: "dana@example.com", phone: "2145550100", brokerage: "Red River Realty" })).toBe(
      "Here is my contact info:\nName: Dana Reyes\nEmail: dana@example.com\nPhone: (214) 555-0100\nBrokerage: Red River Realty",
    );
  });

  it("says what is missing rather than leaving a blank", () => {
    const text = contactInfoText({ fullName: "Dana Reyes", email: "dana@example.com", phone: "", brokerage: " " });
    expect(text).toContain("Phone: Not provided");
    expect(text).toContain("Brokerage: Independent Agent");
  });
});

describe("message times (Central time)", () => {
  const clock = centralClock(new Date("2026-03-03T20:00:00.000Z"));

  it("shows the clock today, the date before", () => {
    expect(clock.listTime("2026-03-03T19:05:00.000Z")).toBe("1:05 PM");
    expect(clock.listTime("2026-01-03T19:05:00.000Z")).toBe("Jan 3");
    expect(clock.listTime("2025-12-31T19:05:00.000Z")).toBe("Dec 31, 2025");
  });

  it("turns the day over at midnight in Texas, not in UTC", () => {
    expect(clock.messageTime("2026-03-03T05:30:00.000Z")).toBe("Mar 2, 11:30 PM");
    expect(clock.messageTime("2026-03-03T06:30:00.000Z")).toBe("12:30 AM");
  });
});

describe("message times against the formatter's own parts", () => {
  const reference = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Chicago",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hour12: true,
  });

  /** "Mar 3, 2025, 2:05 PM" from formatToParts, with the plain spaces the page uses. */
  function referenceText(at: Date): string {
    const parts = Object.fromEntries(reference.formatToParts(at).map((part) => [part.type, part.value]));
    return `${parts.month} ${parts.day}, ${parts.year}, ${parts.hour}:${parts.minute} ${parts.dayPeriod?.toUpperCase()}`;
  }

  it("reads every hour of two years alike, midnight, noon and both DST changes included", () => {
    // A clock a year ahead shows every time of the sweep with its year.
    const clock = centralClock(new Date("2030-06-01T12:00:00.000Z"));
    const start = Date.UTC(2025, 0, 1, 0, 7);
    const differing: string[] = [];
    for (let hour = 0; hour < 2 * 366 * 24; hour += 1) {
      const at = new Date(start + hour * 3_600_000);
      const expected = referenceText(at).replace(/^(\w+ \d+), (\d+), /, "$1, $2, ");
      const shown = clock.listTime(at.toISOString()) + ", " + clock.messageTime(at.toISOString()).split(", ").at(-1);
      if (shown !== expected) differing.push(`${at.toISOString()}: ${shown} ≠ ${expected}`);
    }
    expect(differing.slice(0, 5)).toEqual([]);
  });
});
