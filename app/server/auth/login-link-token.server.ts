import type { Agent } from "~/domain/workbook/tabs";
import type { Config } from "../config.server";
import { createLinkToken, linkTokenCookie, readLinkToken } from "./link-token.server";

/**
 * A one-time login link: the way in for an owner whose account strangers' guesses hold
 * (docs/decisions/0057). Short-lived because it opens a session without the password.
 */
export const LOGIN_LINK_TTL_SECONDS = 15 * 60;
const PURPOSE = "login-link";

/**
 * The token carries the agent's id and a random id of this link; it is signed with the
 * agent's current password hash, so a new password ends it. The link's id is claimed
 * once when it is used (accounts/login-link.server.ts): that is what makes it single-use.
 */
export function createLoginLinkToken(
  secrets: readonly string[],
  agent: Pick<Agent, "id" | "passwordHash">,
  linkId: string,
  now = Date.now(),
): string {
  return createLinkToken(
    secrets,
    PURPOSE,
    { fields: [agent.id, linkId], bound: [agent.passwordHash], ttlSeconds: LOGIN_LINK_TTL_SECONDS },
    now,
  );
}

export type LoginLinkReading = { agent: Agent; linkId: string } | null;

/** The agent and link id of a genuine, unexpired token made with the agent's current password; null otherwise. */
export function readLoginLinkToken(
  secrets: readonly string[],
  token: unknown,
  findAgent: (id: string) => Agent | undefined,
  now = Date.now(),
): LoginLinkReading {
  let agent: Agent | undefined;
  const reading = readLinkToken(
    secrets,
    PURPOSE,
    token,
    {
      fieldCount: 2,
      boundFor: ([agentId = ""]) => {
        agent = findAgent(agentId);
        // An unknown agent binds to nothing a real token was signed with, so its signature fails.
        return [agent?.passwordHash ?? ""];
      },
    },
    now,
  );
  const linkId = reading.ok ? reading.fields[1] : undefined;
  return agent && linkId ? { agent, linkId } : null;
}

/** Holds the token once the link's first request moved it out of the address (see linkTokenCookie). */
export function loginLinkCookie(config: Pick<Config, "isProduction">) {
  return linkTokenCookie(config, { name: "__login_link", path: "/", maxAgeSeconds: LOGIN_LINK_TTL_SECONDS });
}
