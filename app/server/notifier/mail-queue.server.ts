/**
 * The notifier's queue: work that runs after the request that asked for it has been
 * answered. Work given a lane runs after the earlier work of that lane (one decision at a
 * time per throttle chain); driver calls share a few slots, so a state's worth of urgent
 * mail is not a burst of hundreds of calls. `idle` resolves when nothing is queued or
 * running; waits between retries end early once the queue is draining.
 */
export type MailQueue = {
  /** Runs `work` soon, after the request's answer, and after the lane's earlier work. */
  add<T>(lane: string | undefined, work: () => Promise<T>): Promise<T>;
  /** Runs `call` when one of the driver's slots is free. */
  inSlot<T>(call: () => Promise<T>): Promise<T>;
  /** Waits `ms`, or less once `drain` was called: false when the wait was cut short. */
  pause(ms: number): Promise<boolean>;
  /** Resolves once no work is queued or running, including work added meanwhile. */
  idle(): Promise<void>;
  /** Ends every pause at once, and every later one. */
  drain(): void;
};

export function createMailQueue(slots: number): MailQueue {
  const running = new Set<Promise<unknown>>();
  const lanes = new Map<string, Promise<unknown>>();
  const waitingForSlot: (() => void)[] = [];
  const pauses = new Set<() => void>();
  let freeSlots = slots;
  let draining = false;

  function add<T>(lane: string | undefined, work: () => Promise<T>): Promise<T> {
    const before = lane === undefined ? undefined : lanes.get(lane);
    // setImmediate: not a microtask, so the request that queued the work is answered first.
    const started = (before ?? Promise.resolve()).catch(() => undefined).then(() => new Promise((resolve) => setImmediate(resolve)));
    const task = started.then(work);
    running.add(task);
    if (lane !== undefined) lanes.set(lane, task);
    const settled = () => {
      running.delete(task);
      if (lane !== undefined && lanes.get(lane) === task) lanes.delete(lane);
    };
    task.then(settled, settled);
    return task;
  }

  async function inSlot<T>(call: () => Promise<T>): Promise<T> {
    if (freeSlots > 0) freeSlots -= 1;
    else await new Promise<void>((resolve) => waitingForSlot.push(resolve));
    try {
      return await call();
    } finally {
      const next = waitingForSlot.shift();
      if (next) next();
      else freeSlots += 1;
    }
  }

  function pause(ms: number): Promise<boolean> {
    if (draining) return Promise.resolve(false);
    return new Promise((resolve) => {
      const end = (waited: boolean) => {
        clearTimeout(timer);
        pauses.delete(cut);
        resolve(waited);
      };
      const cut = () => end(false);
      const timer = setTimeout(() => end(true), ms);
      pauses.add(cut);
    });
  }

  return {
    add,
    inSlot,
    pause,
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    drain() {
      draining = true;
      for (const cut of [...pauses]) cut();
    },
  };
}
