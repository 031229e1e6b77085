import { describe, expect, it } from "vitest";
import { closeEventStreams, memberEventStream } from "../../app/server/messages/event-stream.server";
import type { MessageEvents } from "../../app/server/messages/live.server";

const noEvents: MessageEvents = { subscribe: () => () => undefined, publish: () => undefined };

function readToEnd(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("stopping the server", () => {
  it("ends every open live-update stream, so the server can close its connections", async () => {
    const open = [0, 1].map(() => memberEventStream({ events: noEvents, memberEmail: "dana@example.com", signal: new AbortController().signal, missedNews: false }));
    const ended = Promise.all(open.map(readToEnd));
    closeEventStreams();
    await expect(ended).resolves.toEqual(["retry: 3000\n\n", "retry: 3000\n\n"]);
  });
});
