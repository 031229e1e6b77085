import { CLAIM_KEYS } from "~/domain/claim-keys";
import { randomUUID } from "node:crypto";
import { LOGIN_LINK_INVALID_MESSAGE } from "~/domain/account-messages";
import { LOGIN_MESSAGES } from "~/domain/auth";
import type { Agent } from "~/domain/workbook/tabs";
import { createLoginLinkToken, LOGIN_LINK_TTL_SECONDS, readLoginLinkToken } from "../auth/login-link-token.server";
import { loginLinkMail } from "../mail/account-mail.server";
import type { Services } from "../services.server";
import { agentForLogin } from "./login.server";
import { publicUrl } from "./urls.server";

/**
 * Queues a one-time login link when an approved account uses this address. Returns at
 * once whatever the address: neither the answer nor its time may tell whether an account
 * uses it, so the page never waits for the mail (docs/decisions/0036, 0057).
 */
export function sendLoginLink(services: Pick<Services, "config" | "store" | "notifier">, email: string, request: Request): void {
  const { config, notifier } = services;
  const agent = agentForLogin(services, email);
  // Only an approved member can log in; the others learn where they stand from the login form, after their password.
  if (agent?.status !== "approved") return;
  const token = createLoginLinkToken(config.sessionSecrets, agent, randomUUID());
  const url = publicUrl(config, `/one-time-login?${new URLSearchParams({ token })}`, request);
  notifier.enqueue({ mail: loginLinkMail(agent, url, LOGIN_LINK_TTL_SECONDS / 60), about: `the login link to agent ${agent.id}` });
}

/** The agent a login link in this browser's cookie was made for, when it is genuine, unexpired and, as far as the replica shows, unused. */
export function agentOfLoginLink(services: Pick<Services, "config" | "store">, token: unknown): Agent | null {
  const link = readLoginLinkToken(services.config.sessionSecrets, token, (id) => services.store.agents.get(id));
  if (!link || services.store.sendClaims.by("key", claimKey(link.linkId)).length > 0) return null;
  return link.agent;
}

function claimKey(linkId: string): string {
  return CLAIM_KEYS["login-link"].key(linkId);
}

export type LoginLinkUse = { ok: true; agent: Agent } | { ok: false; message: string };

/**
 * Spends a login link: its agent on its first use only, on every instance sharing the workbook,
 * because its id is claimed in SendClaims (docs/decisions/0029) and a claim is won once.
 * Rejects when the claim cannot be stored or read back.
 */
export async function spendLoginLink(services: Pick<Services, "config" | "store" | "sendClaims">, token: unknown): Promise<LoginLinkUse> {
  const link = readLoginLinkToken(services.config.sessionSecrets, token, (id) => services.store.agents.get(id));
  if (!link) return { ok: false, message: LOGIN_LINK_INVALID_MESSAGE };
  // Staff may have suspended the member since the link was mailed.
  if (link.agent.status !== "approved") return { ok: false, message: LOGIN_MESSAGES[link.agent.status] };
  const key = claimKey(link.linkId);
  const won = await services.sendClaims.claim([key], new Date());
  return won.has(key) ? { ok: true, agent: link.agent } : { ok: false, message: LOGIN_LINK_INVALID_MESSAGE };
}
