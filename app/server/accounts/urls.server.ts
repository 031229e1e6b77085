import type { Config } from "../config.server";

/**
 * The site's address for links in mails: APP_URL when set (it should be in production,
 * so a forged Host header cannot put another site's address in a mail), else the
 * address the request came to, else the local server.
 */
export function publicUrl(config: Pick<Config, "appUrl" | "port">, path: string, request?: Request): string {
  const base = config.appUrl ?? (request ? new URL(request.url).origin : `http://localhost:${config.port}`);
  return new URL(path, `${base}/`).toString();
}
