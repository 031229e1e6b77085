import type { Store } from "./types.server";

/** Per store, the task in progress for each key. */
const pending = new WeakMap<Store, Map<string, Promise<unknown>>>();

/**
 * Runs `task` after every earlier task of this store with the same key has settled, so
 * a read-decide-write on one row (or one count) is never interleaved with another in
 * this process: two requests of a double click never both create the same row.
 */
export function serially<T>(store: Store, key: string, task: () => Promise<T>): Promise<T> {
  let queue = pending.get(store);
  if (!queue) {
    queue = new Map();
    pending.set(store, queue);
  }
  const previous = queue.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(task);
  queue.set(key, next);
  const settled = () => {
    if (queue.get(key) === next) queue.delete(key);
  };
  next.then(settled, settled);
  return next;
}
