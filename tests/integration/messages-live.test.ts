import type { AppLoadContext } from "@remix-run/node";
import { agentRecord } from "../support/records";
import { afterEach, describe, expect, it } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { action } from "../../app/routes/messages";
import { loader as eventsLoader } from "../../app/routes/messages_.events";
import { startMemberSession } from "../../app/server/auth/session.server";
import type { Store } from "../../app/server/store/store.server";
import { usePostgres } from "../support/postgres";
import { testContext } from "../support/services";

const ann = agentRecord({ id: "rec-ann", fullName: "Ann Archer", email: "ann@example.com", passwordHash: "$2a$04$annannannannannannannu" });
const bob = agentRecord({ id: "rec-bob", fullName: "Bob Brooks", email: "bob@example.com", passwordHash: "$2a$04$bobbobbobbobbobbobbobu" });
const cat = agentRecord({ id: "rec-cat", fullName: "Cat Cole", email: "cat@example.com", passwordHash: "$2a$04$catcatcatcatcatcatcatu" });

const postgres = usePostgres();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function contextWith(agents: readonly Agent[], env: Record<string, string> = {}): Promise<AppLoadContext> {
  const context = testContext({}, env);
  const store: Store = context.services.store;
  cleanups.push(() => store.stop());
  await store.refresh();
  for (const agent of agents) if (!store.agents.get(agent.id)) await store.agents.insert(agent);
  return context;
}

async function cookieOf(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

type Stream = { response: Response; next(timeoutMs?: number): Promise<string | "timeout" | "done">; close(): void };

/** Opens the event stream as `agent`'s browser would; `close()` is the browser going away. */
async function openStream(context: AppLoadContext, agent: Agent | null, since = "9999"): Promise<Stream> {
  const controller = new AbortController();
  const headers: Record<string, string> = agent ? { Cookie: await cookieOf(context, agent) } : {};
  const request = new Request(`http://localhost/messages/events?since=${since}`, { headers, signal: controller.signal });
  const response = (await eventsLoader({ request, context, params: {} })) as Response;
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  cleanups.push(() => controller.abort());
  return {
    response,
    async next(timeoutMs = 1_000) {
      if (!reader) return "done";
      pending ??= reader.read();
      const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs));
      const result = await Promise.race([pending, timeout]);
      if (result === "timeout") return "timeout";
      pending = undefined;
      return result.done ? "done" : decoder.decode(result.value);
    },
    close: () => controller.abort(),
  };
}

function sendAs(context: AppLoadContext, from: Agent, to: Agent, text: string) {
  return cookieOf(context, from).then((cookie) =>
    action({
      request: new Request(`http://localhost/messages?to=${to.id}`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: new URLSearchParams({ intent: "send", text }),
      }),
      context,
      params: {},
    }),
  );
}

describe("/messages/events", () => {
  it("answers 401 without a session, so the browser stops reconnecting", async () => {
    const context = await contextWith([]);
    const stream = await openStream(context, null);
    expect(stream.response.status).toBe(401);
  });

  it("streams uncompressed, uncached events and tells the page a message arrived", async () => {
    const context = await contextWith([ann, bob, cat]);
    const stream = await openStream(context, bob);
    expect(stream.response.headers.get("Content-Type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.response.headers.get("Cache-Control")).toBe("no-cache, no-transform");
    expect(await stream.next()).toBe("retry: 3000\n\n");
    expect(await stream.next(100)).toBe("timeout");

    await sendAs(context, ann, bob, "Hello Bob");
    expect(await stream.next()).toBe("event: change\ndata: {}\n\n");

    // A conversation Bob is not in says nothing to him, and the event never carries the text.
    await sendAs(context, ann, cat, "Hello Cat");
    expect(await stream.next(200)).toBe("timeout");
  });

  it("also tells the sender's other open pages", async () => {
    const context = await contextWith([ann, bob]);
    const stream = await openStream(context, ann);
    await stream.next();
    await sendAs(context, ann, bob, "From my phone");
    expect(await stream.next()).toContain("event: change");
  });

  it("passes on messages another app instance stored, seen by the replica's refresh", async () => {
    const context = await contextWith([ann, bob]);
    const other = await contextWith([], { DATA_DIR: context.services.config.dataDir });
    const stream = await openStream(context, bob);
    await stream.next();
    await sendAs(other, ann, bob, "Via the other instance");
    expect(await stream.next(200)).toBe("timeout");
    await context.services.store.refresh();
    expect(await stream.next()).toContain("event: change");
  });

  it("passes on at once, with no refresh, a message another instance stored in the database", async () => {
    const env = { DATABASE_URL: await postgres.server().createDatabase() };
    const context = await contextWith([ann, bob], env);
    const other = await contextWith([], { ...env, DATA_DIR: context.services.config.dataDir });
    // No timed refresh runs here (the store is not started): only the database's notification can bring the message.
    const stream = await openStream(context, bob);
    await stream.next();
    await sendAs(other, ann, bob, "Via the other instance and the database");
    expect(await stream.next(1_000)).toContain("event: change");
    // What the page reads once told: the message, from the database.
    const [newest] = await context.services.messageQueries.summaries(bob);
    expect(newest?.lastMessage.text).toBe("Via the other instance and the database");
    // And from there only: with a database the replica holds no messages.
    expect(() => context.services.store.messages.all()).toThrow(/read by query/);
  });

  it("announces at once a message newer than the page that connects", async () => {
    const context = await contextWith([ann, bob]);
    await sendAs(context, ann, bob, "Before the page connected");
    const [message] = context.services.store.messages.all();
    const stale = await openStream(context, bob, "2000-01-01T00:00:00.000Z");
    expect(await stale.next()).toBe("retry: 3000\n\n");
    expect(await stale.next()).toContain("event: change");
    const fresh = await openStream(context, bob, message!.createdAt);
    expect(await fresh.next()).toBe("retry: 3000\n\n");
    expect(await fresh.next(100)).toBe("timeout");
  });

  it("ends the stream when the browser goes away", async () => {
    const context = await contextWith([ann, bob]);
    const stream = await openStream(context, bob);
    await stream.next();
    stream.close();
    expect(await stream.next()).toBe("done");
    await sendAs(context, ann, bob, "Nobody listening");
    expect(context.services.store.messages.all()).toHaveLength(1);
  });
});
