import type { MessageEvents } from "./live.server";

/** A comment line often enough that proxies do not close a quiet connection. */
const HEARTBEAT_MS = 25_000;
/**
 * Streams end after this long and the browser reconnects (EventSource does so by
 * itself): a session that ended meanwhile is checked again, and no connection lives
 * on for hours.
 */
const MAX_STREAM_MS = 5 * 60_000;
const RECONNECT_MS = 3_000;

const encoder = new TextEncoder();

type StreamOptions = {
  events: MessageEvents;
  memberEmail: string;
  /** Aborted when the browser goes away. */
  signal: AbortSignal;
  /** True when the member has news the page that connects has not shown: told at once. */
  missedNews: boolean;
  heartbeatMs?: number;
  maxStreamMs?: number;
};

/**
 * A server-sent event stream for one open messages page: a `change` event whenever a
 * message to or from the member arrives. The event carries no message content; the
 * page reloads its data through its loader, which applies every access rule.
 */
export function memberEventStream({
  events,
  memberEmail,
  signal,
  missedNews,
  heartbeatMs = HEARTBEAT_MS,
  maxStreamMs = MAX_STREAM_MS,
}: StreamOptions): ReadableStream<Uint8Array> {
  let end = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      const send = (chunk: string) => {
        if (!ended) controller.enqueue(encoder.encode(chunk));
      };
      const unsubscribe = events.subscribe(
        memberEmail,
        () => send("event: change\ndata: {}\n\n"),
        () => end(),
      );
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), heartbeatMs);
      const lifetime = setTimeout(() => end(), maxStreamMs);
      end = () => {
        if (ended) return;
        ended = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        signal.removeEventListener("abort", end);
        try {
          controller.close();
        } catch {
          // The reader cancelled the stream first: it is already closed.
        }
      };
      signal.addEventListener("abort", end);

      send(`retry: ${RECONNECT_MS}\n\n`);
      if (missedNews) send("event: change\ndata: {}\n\n");
      if (signal.aborted) end();
    },
    cancel() {
      end();
    },
  });
}

export const EVENT_STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform keeps the compression middleware from buffering the stream.
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};
