import { describe, expect, it } from "vitest";
import { memberEventStream } from "../../app/server/messages/event-stream.server";
import { createMessageEvents } from "../../app/server/messages/live.server";

/** A store whose refreshes never bring news. */
const noRefreshes = { messages: { get: () => undefined }, agents: { by: () => [] }, addJob: () => ({ stop: async () => undefined }) };

function readToEnd(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("stopping the server", () => {
  it("ends every open live-update stream, so the server can close its connections", async () => {
    const events = createMessageEvents(noRefreshes, null);
    const open = [0, 1].map(() =>
      memberEventStream({ events, memberEmail: "dana@example.com", signal: new AbortController().signal, missedNews: false }),
    );
    const ended = Promise.all(open.map(readToEnd));
    events.close();
    await expect(ended).resolves.toEqual(["retry: 3000\n\n", "retry: 3000\n\n"]);
  });

  it("ends a stream opened after the close at once", async () => {
    const events = createMessageEvents(noRefreshes, null);
    events.close();
    const late = memberEventStream({ events, memberEmail: "dana@example.com", signal: new AbortController().signal, missedNews: false });
    await expect(readToEnd(late)).resolves.toBe("retry: 3000\n\n");
  });
});
