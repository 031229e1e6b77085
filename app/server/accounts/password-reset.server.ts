import type { Agent } from "~/domain/workbook/tabs";
import { hashPassword } from "../auth/password.server";
import { createResetToken, RESET_TOKEN_TTL_SECONDS } from "../auth/reset-token.server";
import { passwordResetMail, passwordResetStaffNotice } from "../mail/account-mail.server";
import type { Services } from "../services.server";
import { agentForLogin } from "./login.server";
import { publicUrl } from "./urls.server";

/**
 * Queues a reset link when an account uses this address, and the notice to staff either
 * way. Returns at once whatever the address: neither the answer nor its time may tell
 * whether an account uses it, so the page never waits for the mails (docs/decisions/0036).
 */
export function sendPasswordReset(services: Pick<Services, "config" | "store" | "notifier">, email: string, request: Request): void {
  const { config, notifier } = services;
  const agent = agentForLogin(services, email);
  const requestedAt = new Date();
  const mails = [
    {
      mail: passwordResetStaffNotice({ email, accountFound: agent !== undefined, requestedAt }, config.supportEmail),
      about: "a password reset request's notice to staff",
    },
  ];
  if (agent) {
    const token = createResetToken(config.sessionSecrets, agent, requestedAt.getTime());
    const resetUrl = publicUrl(config, `/reset-password?${new URLSearchParams({ token })}`, request);
    mails.unshift({ mail: passwordResetMail(agent, resetUrl, RESET_TOKEN_TTL_SECONDS / 60), about: `the reset link to agent ${agent.id}` });
  }
  notifier.enqueueAll(mails, { now: requestedAt });
}

/** Stores the new password's hash; every session and reset link made before it stops working. */
export async function setNewPassword(services: Services, agent: Agent, password: string): Promise<Agent> {
  const passwordHash = await hashPassword(services.config, password);
  return services.store.agents.update(agent.id, { passwordHash, updatedAt: new Date().toISOString() });
}
