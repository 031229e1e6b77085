import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { SendClaims } from "../send-claims.server";
import type { BackgroundJob, Store } from "../store/store.server";
import { refreshJob } from "./registry.server";

type Deps = {
  store: Store;
  claims: Pick<SendClaims, "claim" | "prune">;
  /** The time; replaced in tests. */
  clock?: () => Date;
  log?: Pick<Console, "info" | "error">;
};

export type SendClaimsPruning = BackgroundJob & {
  /** Prunes once unless today's pruning was claimed already (here or by another instance): the rows deleted, or undefined. */
  run(): Promise<number | undefined>;
  /** Stops looking; resolves once a pruning under way has ended. */
  stop(): Promise<void>;
};

/**
 * Once a day, after a store refresh, the first instance to claim the day (`prune:<date>`)
 * deletes the SendClaims rows whose keys can no longer recur (docs/decisions/0039): one
 * read of the tab and one delete call. One instance a day, so two never delete at once.
 */
export function pruneSendClaimsDaily({ store, claims, clock = () => new Date(), log = console }: Deps): SendClaimsPruning {
  let running: Promise<number | undefined> | undefined;
  async function pruneToday(): Promise<number | undefined> {
    const now = clock();
    const key = CLAIM_KEYS.prune.key(now.toISOString().slice(0, 10));
    if (store.sendClaims.by("key", key).length > 0) return undefined;
    if (!(await claims.claim([key], now)).has(key)) return undefined;
    const deleted = await claims.prune(now);
    log.info(`Claims: ${deleted} rows of SendClaims whose mail can no longer recur deleted.`);
    return deleted;
  }
  function run(): Promise<number | undefined> {
    running ??= pruneToday().finally(() => {
      running = undefined;
    });
    return running;
  }
  const job = store.addJob({
    ...refreshJob("sendClaimsPruning"),
    async run() {
      void run().catch((error: unknown) => log.error("Claims: the daily pruning of SendClaims failed:", error));
    },
  });
  return {
    run,
    async stop() {
      await job.stop();
      await running?.catch(() => undefined);
    },
  };
}
