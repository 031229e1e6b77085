import type { BackgroundJob } from "../services.server";
import type { Store } from "../store/store.server";

/**
 * Ends every session of an agent staff suspend, for good: once this process sees the
 * `suspended` status after a refresh, it stamps `sessionsEndedAt`, as a logout does, so a
 * cookie from before the suspension stays refused when staff set `approved` again.
 *
 * Staff set the status in the sheet, so the app can only notice it. Each instance stamps
 * each suspension it sees once; the stamp is in the row, so it survives restarts and every
 * instance reads it. A restarted process stamps the agents still suspended once more:
 * harmless, since nobody can log in while suspended (docs/decisions/0033). A stamp that
 * cannot be stored is tried again after the next refresh.
 */
export function endSessionsOfSuspendedAgents(
  store: Pick<Store, "agents" | "addRefreshJob">,
  { clock = () => new Date(), log = console }: { clock?: () => Date; log?: Pick<Console, "error"> } = {},
): BackgroundJob {
  /** Agents whose sessions this process ended during their current suspension. */
  const ended = new Set<string>();

  async function endSessions(): Promise<void> {
    const suspended = store.agents.by("status", "suspended");
    const stillSuspended = new Set(suspended.map((agent) => agent.id));
    for (const id of ended) if (!stillSuspended.has(id)) ended.delete(id);
    for (const agent of suspended) {
      if (ended.has(agent.id)) continue;
      try {
        await store.agents.update(agent.id, { sessionsEndedAt: clock().toISOString() });
        ended.add(agent.id);
      } catch (error) {
        log.error(`Accounts: could not end the sessions of suspended agent ${agent.id}; trying again after the next refresh.`, error);
      }
    }
  }

  return { stop: store.addRefreshJob(endSessions) };
}
