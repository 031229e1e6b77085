import type { LoaderFunctionArgs } from "@remix-run/node";

export function loader({ context }: LoaderFunctionArgs) {
  const { config, mailer } = context.services;
  return Response.json(
    { ok: true, env: config.env, mail: mailer.driver, uptimeSeconds: Math.round(process.uptime()) },
    { headers: { "Cache-Control": "no-store" } },
  );
}
