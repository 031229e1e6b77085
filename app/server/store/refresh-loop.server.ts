import { mergeChanges, refreshEvent, touchesWatched, type Changes } from "./refresh-event.server";
import type { BackgroundJob, RefreshJob } from "./types.server";

type LoopOptions = {
  /** The replica's refresh: re-reads what changed and hands it to `found`. */
  refresh: () => Promise<void>;
  refreshMs: number;
  /** How long stopping a job waits for its run in flight before cutting it. */
  stopWaitMs: number;
  log: Pick<Console, "error">;
};

/** A job as the loop runs it: the changes it has not been given yet, and its run in flight. */
type JobState = {
  job: RefreshJob;
  pending: Changes;
  run: Promise<void> | undefined;
  /** A refresh came during the run: run once more after it. */
  again: boolean;
  stopped: boolean;
  controller: AbortController;
};

/** The store's refresh timer and the jobs run after its refreshes (docs/decisions/0037). */
export type RefreshLoop = {
  /** Hands what a refresh found to every job, and runs at once the jobs watching a tab it changed. */
  found(changes: Changes): void;
  addJob(job: RefreshJob): BackgroundJob;
  /** Starts the timer: a refresh every `refreshMs`, then a run of every job not still running. */
  start(): void;
  /** Stops the timer, waits for the refresh it started, and stops every job. */
  stop(): Promise<void>;
};

export function createRefreshLoop({ refresh, refreshMs, stopWaitMs, log }: LoopOptions): RefreshLoop {
  const jobs = new Set<JobState>();
  let timer: NodeJS.Timeout | undefined;
  /** The timer's refresh, while it runs. */
  let tick: Promise<void> | undefined;
  let running = false;

  function runSoon(state: JobState): void {
    if (state.stopped) return;
    if (state.run) {
      state.again = true;
      return;
    }
    const event = refreshEvent(state.pending, state.job.watches);
    state.pending = new Map();
    state.run = Promise.resolve()
      .then(() => state.job.run(event, state.controller.signal))
      .catch((error: unknown) => log.error(`Store: the ${state.job.name} job failed:`, error))
      .finally(() => {
        state.run = undefined;
        if (!state.again) return;
        state.again = false;
        runSoon(state);
      });
  }

  async function stopJob(state: JobState): Promise<void> {
    state.stopped = true;
    jobs.delete(state);
    state.controller.abort();
    if (!state.run) return;
    let deadline: NodeJS.Timeout | undefined;
    const cut = new Promise<"cut">((resolve) => {
      deadline = setTimeout(() => resolve("cut"), stopWaitMs);
    });
    const outcome = await Promise.race([state.run.then(() => "done" as const), cut]);
    clearTimeout(deadline);
    if (outcome === "cut")
      log.error(`Store: the ${state.job.name} job was still running ${stopWaitMs / 1000} s after the stop; its work in flight is cut.`);
  }

  function schedule(): void {
    timer = setTimeout(() => {
      tick = refresh()
        .then(
          // A job still running from before is not started again: its next run comes with the next refresh.
          () => [...jobs].filter((state) => !state.run).forEach(runSoon),
          () => undefined,
        )
        .finally(() => {
          tick = undefined;
          if (running) schedule();
        });
    }, refreshMs);
    timer.unref();
  }

  return {
    found(changes) {
      for (const state of jobs) {
        mergeChanges(state.pending, changes);
        if (touchesWatched(changes, state.job.watches)) runSoon(state);
      }
    },
    addJob(job) {
      const state: JobState = { job, pending: new Map(), run: undefined, again: false, stopped: false, controller: new AbortController() };
      jobs.add(state);
      return { stop: () => stopJob(state) };
    },
    start() {
      if (running) return;
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await tick;
      await Promise.all([...jobs].map(stopJob));
    },
  };
}
