import type { LoaderFunctionArgs } from "@remix-run/node";
import { bearsHealthToken, healthStatus, memoryDetails } from "~/server/health.server";
import { LICENSE_DATA_MISSING } from "~/server/licenses/licenses.server";
import { unmatchedDecisionProblem } from "~/server/moderation/decision-audit.server";
import { HIGH_VOLUME_TAB_NAMES } from "~/server/store/postgres/driver.server";

/**
 * Up and serving: anyone gets `ok` or `degraded`. With `Authorization: Bearer
 * HEALTH_TOKEN` it also says which driver holds the data, how old the replica is, the
 * last store error (it can name the spreadsheet), which rows did not read, and when
 * Moderation rows match no item, when
 * TREC's license data was loaded and how many records it holds (before a first load, what
 * that leaves undone and how to load it),
 * and, with `DATABASE_URL`, which tabs the database holds and whether this instance hears the
 * others' writes (null without a database), whether Web Push is configured (and if not, why),
 * the process's memory with each held tab's share of it, and each mirror tab's size in cells
 * and last rewrite (docs/decisions/0081).
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  const { config, notifier, store, licenses, database, push, mirrors, decisionAudit } = context.services;
  const health = store.health();
  const databaseHealth = database ? { tables: [...HIGH_VOLUME_TAB_NAMES], ...database.health() } : null;
  const status = healthStatus(health, databaseHealth);
  const headers = { "Cache-Control": "no-store" };
  if (!bearsHealthToken(request, config.healthToken)) return Response.json({ status }, { headers });
  return Response.json(
    {
      status,
      env: config.env,
      mail: notifier.driver,
      push: push.publicKey ? { configured: true } : { configured: false, problem: push.offBecause },
      uptimeSeconds: Math.round(process.uptime()),
      store: health,
      moderation: { unmatchedRows: decisionAudit.unmatched().map(unmatchedDecisionProblem) },
      database: databaseHealth,
      licenses: licenses.table.info() ?? { loaded: false, problem: LICENSE_DATA_MISSING },
      memory: memoryDetails(store),
      mirrors: mirrors.health(),
    },
    { headers },
  );
}
