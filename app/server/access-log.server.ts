import type { IncomingMessage, ServerResponse } from "node:http";
import morgan from "morgan";
import type { Config } from "./config.server";

/** Query parameters whose values are secrets (a password-reset link's token): never written to a log. */
const SECRET_PARAMETER = /token|secret|password|key|code/i;

/** A calendar feed's address: the token in its path is the key to the member's dates (docs/decisions/0069). */
const CALENDAR_FEED_PATH = /^\/calendar\/[^/?]+\.ics(?=\?|$)/;

/** The request's address with the value of every secret query parameter, and a calendar feed's token, replaced. */
export function redactSecrets(address: string): string {
  const url = address.replace(CALENDAR_FEED_PATH, "/calendar/[redacted].ics");
  const queryStart = url.indexOf("?");
  if (queryStart < 0) return url;
  const parts = url
    .slice(queryStart + 1)
    .split("&")
    .map((part) => {
      const name = part.split("=", 1)[0] ?? "";
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll("+", " "));
      } catch {
        // A malformed escape is logged as sent; only a readable name can be recognised as secret.
      }
      return SECRET_PARAMETER.test(decoded) ? `${name}=[redacted]` : part;
    });
  return `${url.slice(0, queryStart)}?${parts.join("&")}`;
}

type LoggedRequest = IncomingMessage & { originalUrl?: string };

// Morgan's own formats print the address through this token.
morgan.token<LoggedRequest>("url", (request) => redactSecrets(request.originalUrl ?? request.url ?? ""));

/** One line per request (Apache's combined format in production), with secrets taken out of the address. */
export function accessLog(config: Pick<Config, "isProduction">, stream: NodeJS.WritableStream = process.stdout) {
  return morgan<LoggedRequest, ServerResponse>(config.isProduction ? "combined" : "dev", { stream });
}
