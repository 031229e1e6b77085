import type { LoaderFunctionArgs } from "@remix-run/node";
import { bearsHealthToken, healthStatus } from "~/server/health.server";

/**
 * Up and serving: anyone gets `ok` or `degraded`. With `Authorization: Bearer
 * HEALTH_TOKEN` it also says which driver holds the data, how old the replica is, the
 * last store error (it can name the spreadsheet), which rows did not read, and when
 * TREC's license data was loaded and how many records it holds (null before a first load).
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  const { config, notifier, store, licenses } = context.services;
  const health = store.health();
  const status = healthStatus(health);
  const headers = { "Cache-Control": "no-store" };
  if (!bearsHealthToken(request, config.healthToken)) return Response.json({ status }, { headers });
  return Response.json(
    {
      status,
      env: config.env,
      mail: notifier.driver,
      uptimeSeconds: Math.round(process.uptime()),
      store: health,
      licenses: licenses.table.info() ?? null,
    },
    { headers },
  );
}
