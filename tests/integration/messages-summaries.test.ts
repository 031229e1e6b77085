/** A member's conversation summaries and unread count are worked out once per change to their messages, not on every page. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversationIdFor } from "../../app/domain/conversation";
import * as domain from "../../app/domain/messages";
import { conversationListPage, conversationsOf, newestIn, unreadTotal } from "../../app/server/messages/conversations.server";
import { newId, type Store } from "../../app/server/store/store.server";
import { insertAgent, testContext } from "../support/services";

vi.mock("../../app/domain/messages", async (importOriginal) => {
  const original = await importOriginal<typeof domain>();
  return { ...original, summariseConversations: vi.fn(original.summariseConversations) };
});

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.stop()));
});

describe("conversation summaries", () => {
  it("are reused while nothing of the member's changes, and worked out again after a message or a read", async () => {
    const context = testContext();
    const { store } = context.services;
    opened.push(store);
    await store.refresh();
    const ann = await insertAgent(context, { fullName: "Ann Archer" });
    const bob = await insertAgent(context, { fullName: "Bob Brooks" });
    const cat = await insertAgent(context, { fullName: "Cat Cole" });
    const conversationId = conversationIdFor(ann.id, bob.id);
    const send = (from: typeof ann, to: typeof ann, text: string, createdAt: string) =>
      store.messages.insert({
        id: newId(),
        conversationId: conversationIdFor(from.id, to.id),
        fromEmail: from.email,
        toEmail: to.email,
        text,
        createdAt,
      });
    await send(bob, ann, "Hello Ann", "2026-11-01T10:00:00.000Z");
    const summarise = vi.mocked(domain.summariseConversations);
    summarise.mockClear();

    expect(await unreadTotal(context.services, ann)).toBe(1);
    expect(conversationListPage(context.services, ann, await conversationsOf(context.services, ann), 1).conversationTotal).toBe(1);
    expect(newestIn(await conversationsOf(context.services, ann))).toBe("2026-11-01T10:00:00.000Z");
    expect(summarise).toHaveBeenCalledTimes(1);

    // Someone else's message leaves Ann's summaries as they were.
    await send(bob, cat, "Hello Cat", "2026-11-01T11:00:00.000Z");
    expect(await unreadTotal(context.services, ann)).toBe(1);
    expect(summarise).toHaveBeenCalledTimes(1);

    await send(bob, ann, "Are you there?", "2026-11-01T12:00:00.000Z");
    expect(await unreadTotal(context.services, ann)).toBe(2);
    expect(summarise).toHaveBeenCalledTimes(2);

    await context.services.readPositions.markRead(conversationId, ann.email, "2026-11-01T12:00:00.000Z");
    expect(await unreadTotal(context.services, ann)).toBe(0);
    expect(conversationListPage(context.services, ann, await conversationsOf(context.services, ann), 1).conversations[0]).toMatchObject({
      preview: "Are you there?",
      unread: 0,
    });
    expect(summarise).toHaveBeenCalledTimes(3);
  });
});
