import type { LoaderFunctionArgs } from "@remix-run/node";

/** Up and serving; `store` says which driver holds the data, how old the replica is and which rows did not read. */
export function loader({ context }: LoaderFunctionArgs) {
  const { config, mailer, store } = context.services;
  return Response.json(
    { ok: true, env: config.env, mail: mailer.driver, uptimeSeconds: Math.round(process.uptime()), store: store.health() },
    { headers: { "Cache-Control": "no-store" } },
  );
}
