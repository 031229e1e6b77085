import type { BackgroundJob, RefreshEvent, Store } from "../store/store.server";
import { refreshJob } from "./registry.server";

/** The agents staff suspended since the last run: a status that became `suspended`, or a row added as suspended. */
function newlySuspended(store: Pick<Store, "agents">, event: RefreshEvent): string[] {
  const changed = event.agents.changed.filter(({ before, after }) => after.status === "suspended" && before.status !== "suspended");
  const added = event.agents.added.filter((id) => store.agents.get(id)?.status === "suspended");
  return [...changed.map(({ id }) => id), ...added];
}

/**
 * Ends every session of an agent staff suspend, for good: once this process sees the
 * `suspended` status after a refresh, it stamps `sessionsEndedAt`, as a logout does, so a
 * cookie from before the suspension stays refused when staff set `approved` again.
 *
 * Staff set the status in the sheet, so the app can only notice it: the refresh event
 * names each status that became `suspended`. Each instance stamps each suspension it sees
 * once; the stamp is in the row, so it survives restarts and every instance reads it. A
 * started process stamps the agents suspended at its first run once more: harmless, since
 * nobody can log in while suspended (docs/decisions/0033). A stamp that cannot be stored
 * is tried again at the next run.
 */
export function endSessionsOfSuspendedAgents(
  store: Pick<Store, "agents" | "addJob">,
  { clock = () => new Date(), log = console }: { clock?: () => Date; log?: Pick<Console, "error"> } = {},
): BackgroundJob {
  /** The first run stamps every suspended agent; later runs, the new suspensions. */
  let started = false;
  /** Agents whose stamp could not be stored: tried again at the next run. */
  const failed = new Set<string>();

  async function stamp(id: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted || store.agents.get(id)?.status !== "suspended") return;
    try {
      await store.agents.update(id, { sessionsEndedAt: clock().toISOString() });
    } catch (error) {
      log.error(`Accounts: could not end the sessions of suspended agent ${id}; trying again at the next run.`, error);
      failed.add(id);
    }
  }

  return store.addJob({
    ...refreshJob("suspendedSessions"),
    async run(event, signal) {
      const carried = started ? [...failed] : store.agents.by("status", "suspended").map((agent) => agent.id);
      const ids = new Set([...carried, ...newlySuspended(store, event)]);
      started = true;
      failed.clear();
      for (const id of ids) await stamp(id, signal);
    },
  });
}
