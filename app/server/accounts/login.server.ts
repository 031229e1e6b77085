import { LOGIN_MESSAGES } from "~/domain/auth";
import type { Agent } from "~/domain/workbook/tabs";
import { verifyAgainstNothing, verifyPassword } from "../auth/password.server";
import type { Services } from "../services.server";

export type LoginCheck = { ok: true; agent: Agent } | { ok: false; message: string };

/**
 * Checks an e-mail and password against the agents in the store, with the product's
 * messages. The password is checked before the account's status, so only someone
 * who knows it learns that an account is pending or rejected; an unknown e-mail
 * costs the same bcrypt work as a known one. An address whose Agents row was skipped
 * (it does not read) is told so, not that there is no account.
 */
export async function checkLogin(services: Pick<Services, "config" | "store">, email: string, password: string): Promise<LoginCheck> {
  const agent = agentForLogin(services, email);
  if (!agent) {
    await verifyAgainstNothing(services.config, password);
    const unreadable = services.store.agents.skippedWith("email", email).length > 0;
    return { ok: false, message: unreadable ? LOGIN_MESSAGES.unreadable : LOGIN_MESSAGES.noAccount };
  }
  if (!(await verifyPassword(password, agent.passwordHash))) return { ok: false, message: LOGIN_MESSAGES.wrongPassword };
  if (agent.status === "pending") return { ok: false, message: LOGIN_MESSAGES.pending };
  if (agent.status === "rejected") return { ok: false, message: LOGIN_MESSAGES.rejected };
  if (agent.status === "suspended") return { ok: false, message: LOGIN_MESSAGES.suspended };
  return { ok: true, agent };
}

/** Staff may leave two rows with one address; the approved one is the account that logs in. */
export function agentForLogin({ store }: Pick<Services, "store">, email: string): Agent | undefined {
  const matches = store.agents.by("email", email);
  return matches.find((agent) => agent.status === "approved") ?? matches[0];
}
