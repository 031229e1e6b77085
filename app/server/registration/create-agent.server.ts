import type { ProfileCompletion, RegistrationDraft } from "~/domain/registration";
import type { Agent } from "~/domain/workbook/tabs";
import { hashPassword } from "../auth/password.server";
import { approvalMail } from "../mail/account-mail.server";
import { agentWelcomeMail, staffRegistrationMail } from "../mail/registration-mail.server";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";
import { matchVipCode, membershipForDraft } from "./vip.server";

export class EmailTakenError extends Error {
  override name = "EmailTakenError";
  constructor(readonly email: string) {
    super("An account with this email already exists");
  }
}

/** The agent row already holding this e-mail, whatever its status. */
export function registeredAgent(services: Pick<Services, "store">, email: string): Agent | undefined {
  return services.store.agents.by("email", email)[0];
}

function isEmailRegistered(services: Pick<Services, "store">, email: string): boolean {
  return registeredAgent(services, email) !== undefined;
}

export type NewAgentProfile = Omit<ProfileCompletion, "photo" | "confirmPassword"> & { photoUrl: string | undefined };

/**
 * Creates the agent's row, pending staff approval, with the license check's result for
 * staff (approved at once only when LICENSE_AUTO_APPROVE is on and the check is clean;
 * the check never refuses anyone). The membership type is VIP for a code still
 * configured, founder while fewer than FOUNDER_CAP agents exist, member after. Rejects
 * with EmailTakenError, or the store's error when the row could not be saved (then
 * nothing was saved).
 */
export async function createAgent(
  services: Pick<Services, "config" | "store" | "writeQueues" | "licenses">,
  draft: RegistrationDraft,
  profile: NewAgentProfile,
  now = new Date(),
): Promise<Agent> {
  // Hashed before taking the turn: bcrypt is the slow part and needs no shared state.
  const passwordHash = await hashPassword(profile.password);
  // One registration at a time in this process, so two submissions of one e-mail cannot both pass the duplicate check.
  return services.writeQueues.serially("registrations", async () => {
    if (isEmailRegistered(services, draft.email)) throw new EmailTakenError(draft.email);
    const vipCode = matchVipCode(services.config, draft.vipCode);
    const timestamp = now.toISOString();
    const { approve, ...licenseCheck } = services.licenses.checkApplicant(
      { fullName: draft.fullName, brokerage: profile.brokerage, licenseNumber: profile.licenseNumber, licenseState: profile.licenseState },
      now,
    );
    const agent: Agent = {
      id: newId(),
      fullName: draft.fullName,
      email: draft.email,
      phone: draft.phone,
      state: draft.state,
      city: draft.city,
      zipCode: "",
      licenseNumber: profile.licenseNumber,
      licenseState: profile.licenseState,
      licenseExpiration: profile.licenseExpiration ?? "",
      brokerage: profile.brokerage,
      brokerEmail: profile.brokerEmail ?? "",
      specialties: profile.specialties,
      bio: profile.bio ?? "",
      photoUrl: profile.photoUrl ?? "",
      membershipType: membershipForDraft(services, draft),
      vipCode: vipCode ?? "",
      status: approve ? "approved" : "pending",
      statusNote: "",
      passwordHash,
      createdAt: timestamp,
      updatedAt: timestamp,
      ...licenseCheck,
    };
    return services.store.agents.insert(agent);
  });
}

/**
 * Tells the agent (welcome, or approval when approved automatically) and staff. A mail
 * that cannot be sent is logged and does not undo the registration (spec §8).
 */
export async function sendRegistrationMails(services: Services, agent: Agent, agentLoginUrl: string): Promise<void> {
  const mails = [
    agent.status === "approved"
      ? { label: "approval mail", mail: approvalMail(agent, agentLoginUrl) }
      : { label: "welcome mail", mail: agentWelcomeMail(agent, agentLoginUrl) },
    { label: "staff notice", mail: staffRegistrationMail(agent, services.config.supportEmail) },
  ];
  const results = await Promise.allSettled(mails.map(({ mail }) => services.mailer.send(mail)));
  results.forEach((result, index) => {
    if (result.status === "rejected") console.error(`Registration ${mails[index]?.label} for agent ${agent.id} not sent:`, result.reason);
  });
}
