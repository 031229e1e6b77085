import type { Agent } from "~/domain/workbook/tabs";
import { hashPassword } from "../auth/password.server";
import { createResetToken, RESET_TOKEN_TTL_SECONDS } from "../auth/reset-token.server";
import { passwordResetMail, passwordResetStaffNotice } from "../mail/account-mail.server";
import type { Services } from "../services.server";
import { agentForLogin } from "./login.server";
import { publicUrl } from "./urls.server";

/**
 * Mails a reset link when an account uses this address, and tells staff either way.
 * Rejects when a mail could not be sent, so the page can say so.
 */
export async function sendPasswordReset(services: Services, email: string, request: Request): Promise<void> {
  const { config, mailer } = services;
  const agent = agentForLogin(services, email);
  const requestedAt = new Date();
  const mails = [passwordResetStaffNotice({ email, accountFound: agent !== undefined, requestedAt }, config.supportEmail)];
  if (agent) {
    const token = createResetToken(config.sessionSecrets, agent, requestedAt.getTime());
    const resetUrl = publicUrl(config, `/reset-password?${new URLSearchParams({ token })}`, request);
    mails.unshift(passwordResetMail(agent, resetUrl, RESET_TOKEN_TTL_SECONDS / 60));
  }
  // Both at once: the time taken says little about whether the address has an account.
  await Promise.all(mails.map((mail) => mailer.send(mail)));
}

/** Stores the new password's hash; every session and reset link made before it stops working. */
export async function setNewPassword(services: Services, agent: Agent, password: string): Promise<Agent> {
  const passwordHash = await hashPassword(services.config, password);
  return services.store.agents.update(agent.id, { passwordHash, updatedAt: new Date().toISOString() });
}
