import type { Store } from "../store/store.server";

/**
 * Tells a member's open messages pages that a message to or from them arrived. News
 * comes from this process's own writes (`publish`) and from the replica's refreshes,
 * which bring in what other instances and staff wrote. Refreshes run on the store's own
 * timer, so open pages cost no extra reads of the spreadsheet.
 */
export type MessageEvents = {
  /** Calls `listener` whenever a message to or from the member with this e-mail arrives; returns the unsubscribe. */
  subscribe(memberEmail: string, listener: () => void): () => void;
  publish(memberEmails: Iterable<string>): void;
};

const hubs = new WeakMap<Store, MessageEvents>();

/** The store's one hub, watching its refreshes from the first call on. */
export function messageEvents(store: Store): MessageEvents {
  let hub = hubs.get(store);
  if (!hub) {
    hub = createMessageEvents(store);
    hubs.set(store, hub);
  }
  return hub;
}

function changed<T>(previous: ReadonlyMap<string, T>, current: ReadonlyMap<string, T>): T[] {
  return [...current].filter(([id, record]) => JSON.stringify(previous.get(id)) !== JSON.stringify(record)).map(([, record]) => record);
}

function createMessageEvents(store: Store, log: Pick<Console, "error"> = console): MessageEvents {
  const listeners = new Map<string, Set<() => void>>();
  const key = (email: string) => email.trim().toLowerCase();

  function publish(memberEmails: Iterable<string>): void {
    for (const email of new Set([...memberEmails].map(key))) {
      for (const listener of listeners.get(email) ?? []) {
        try {
          listener();
        } catch (error) {
          log.error("Messages: a live update listener failed:", error);
        }
      }
    }
  }

  store.onRefresh((event) => {
    if (listeners.size === 0) return;
    if (event.collection !== "messages") return;
    publish(changed(event.previous, event.current).flatMap((message) => [message.fromEmail, message.toEmail]));
  });

  return {
    publish,
    subscribe(memberEmail, listener) {
      const email = key(memberEmail);
      let set = listeners.get(email);
      if (!set) {
        set = new Set();
        listeners.set(email, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(email) === set) listeners.delete(email);
      };
    },
  };
}
