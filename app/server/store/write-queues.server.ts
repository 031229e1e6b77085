/**
 * Runs tasks one after another per key, in this process: a read-decide-write on one row
 * (or one count) is never interleaved with another, so two requests of a double click
 * never both create the same row.
 */
export type WriteQueues = {
  /** Runs `task` after every earlier task with the same key has settled. */
  serially<T>(key: string, task: () => Promise<T>): Promise<T>;
};

export function createWriteQueues(): WriteQueues {
  /** The task in progress for each key; a key is dropped once its last task settles. */
  const pending = new Map<string, Promise<unknown>>();
  return {
    serially(key, task) {
      const previous = pending.get(key) ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(task);
      pending.set(key, next);
      const settled = () => {
        if (pending.get(key) === next) pending.delete(key);
      };
      next.then(settled, settled);
      return next;
    },
  };
}
