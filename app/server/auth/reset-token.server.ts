import { createCookie, type Cookie } from "@remix-run/node";
import type { Agent } from "~/domain/workbook/tabs";
import type { Config } from "../config.server";
import { sign, verifySignature } from "./signing.server";

/** A reset link works for one hour. */
export const RESET_TOKEN_TTL_SECONDS = 60 * 60;
const PURPOSE = "password-reset";

/**
 * A password-reset token: the agent's id and an expiry time, signed together with the
 * agent's current password hash. Nothing is stored: once the password changes (the
 * link was used, or the member changed it otherwise) the signature no longer matches,
 * so each link works at most once.
 */
export function createResetToken(secrets: readonly string[], agent: Pick<Agent, "id" | "passwordHash">, now = Date.now()): string {
  const expiresAt = Math.floor(now / 1000) + RESET_TOKEN_TTL_SECONDS;
  const encodedId = Buffer.from(agent.id, "utf8").toString("base64url");
  return `${encodedId}.${expiresAt}.${sign(secrets, PURPOSE, signedData(agent.id, expiresAt, agent.passwordHash))}`;
}

/** The agent the token was made for, when it is genuine, unexpired and unused; null otherwise. */
export function readResetToken(
  secrets: readonly string[],
  token: unknown,
  findAgent: (id: string) => Agent | undefined,
  now = Date.now(),
): Agent | null {
  if (typeof token !== "string" || token.length > 500) return null;
  const [encodedId, expiry, signature, ...rest] = token.split(".");
  if (!encodedId || !expiry || !signature || rest.length > 0 || !/^\d{1,12}$/.test(expiry)) return null;
  const expiresAt = Number(expiry);
  if (Math.floor(now / 1000) >= expiresAt) return null;
  const agent = findAgent(Buffer.from(encodedId, "base64url").toString("utf8"));
  if (!agent) return null;
  return verifySignature(secrets, PURPOSE, signedData(agent.id, expiresAt, agent.passwordHash), signature) ? agent : null;
}

/**
 * Holds the token after the mailed link's first request, which moves it out of the
 * address: the bare /reset-password URL is what the access log and any Referer show.
 * Scripts cannot read it, and it lives only as long as a link. Its path is the whole site:
 * the form posts to /reset-password.data when scripts run, which a narrower path would miss.
 * Unsigned: the token carries its own signature.
 */
export function resetTokenCookie(config: Pick<Config, "isProduction">): Cookie {
  return createCookie("__reset", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isProduction,
    path: "/",
    maxAge: RESET_TOKEN_TTL_SECONDS,
  });
}

function signedData(agentId: string, expiresAt: number, passwordHash: string): string {
  return JSON.stringify([agentId, expiresAt, passwordHash]);
}
