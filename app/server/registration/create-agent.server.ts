import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { ProfileCompletion, RegistrationDraft } from "~/domain/registration";
import type { Agent } from "~/domain/workbook/tabs";
import { hashPassword } from "../auth/password.server";
import { approvalMail } from "../mail/account-mail.server";
import { agentWelcomeMail, staffRegistrationMail } from "../mail/registration-mail.server";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";
import { inviterOf, recordRegistration } from "../outreach/outreach.server";
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

/** The id the draft's agent gets: the same for every submission of one draft, so a retry finds the row it stored. */
function agentIdFor(draft: RegistrationDraft): string {
  return draft.key ?? newId();
}

/** The e-mail's agent when it is this draft's own, stored by an earlier submission whose answer was lost. */
export function ownRegistration(services: Pick<Services, "store">, draft: RegistrationDraft): Agent | undefined {
  const existing = registeredAgent(services, draft.email);
  return existing && draft.key !== undefined && existing.id === draft.key ? existing : undefined;
}

export type NewAgentProfile = Omit<ProfileCompletion, "photo" | "confirmPassword"> & {
  photoUrl: string | undefined;
  /** Whether the broker is TREC's sponsor (kept current by reloads of the data) or the member's own answer. */
  brokerFrom: Agent["brokerFrom"];
};

/**
 * Creates the agent's row, pending staff approval, with the license check's result for
 * staff (approved at once only when LICENSE_AUTO_APPROVE is on and the check is clean;
 * the check never refuses anyone). The membership type is VIP for a code still
 * configured, founder while fewer than FOUNDER_CAP agents exist, member after. Rejects
 * with EmailTakenError, or the store's error when the row could not be saved (then
 * nothing was saved). One agent per e-mail across instances: the e-mail is claimed in the
 * SendClaims tab, and the first claim registers (docs/decisions/0032). A draft sent again
 * resolves with the agent it stored.
 */
export async function createAgent(
  services: Pick<Services, "config" | "store" | "writeQueues" | "licenses" | "sendClaims">,
  draft: RegistrationDraft,
  profile: NewAgentProfile,
  now = new Date(),
): Promise<Agent> {
  // Hashed before taking the turn: bcrypt is the slow part and needs no shared state.
  const passwordHash = await hashPassword(services.config, profile.password);
  // One registration at a time in this process, so two submissions of one e-mail cannot both pass the duplicate check.
  const id = agentIdFor(draft);
  return services.writeQueues.serially("registrations", async () => {
    const existing = registeredAgent(services, draft.email);
    if (existing) {
      if (existing.id === id) return existing;
      throw new EmailTakenError(draft.email);
    }
    const vipCode = matchVipCode(services.config, draft.vipCode);
    const timestamp = now.toISOString();
    const { approve, ...licenseCheck } = services.licenses.checkApplicant(
      {
        fullName: draft.fullName,
        email: draft.email,
        brokerage: profile.brokerage,
        licenseNumber: profile.licenseNumber,
        licenseState: profile.licenseState,
      },
      now,
    );
    const agent: Agent = {
      id,
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
      brokerEmail: profile.brokerEmail,
      brokerLicenseNumber: profile.brokerLicenseNumber,
      brokerFrom: profile.brokerFrom,
      specialties: profile.specialties,
      bio: profile.bio ?? "",
      photoUrl: profile.photoUrl ?? "",
      membershipType: membershipForDraft(services, draft),
      vipCode: vipCode ?? "",
      status: approve ? "approved" : "pending",
      statusNote: "",
      passwordHash,
      placesServed: [],
      invitedBy: inviterOf(services, draft.outreachId),
      createdAt: timestamp,
      updatedAt: timestamp,
      ...licenseCheck,
    };
    if (!(await services.sendClaims.claimAs(emailClaimKey(draft.email), id, now))) throw new EmailTakenError(draft.email);
    // Registrations are few: each looks past the replica for a row an earlier try of the draft stored.
    const stored = await services.store.agents.insertOnce(agent, { lookInStore: true });
    await recordRegistration(services, draft.outreachId, stored);
    return stored;
  });
}

/** The claim that gives an e-mail to one registration, whichever instance it reaches first. */
function emailClaimKey(email: string): string {
  return CLAIM_KEYS["agent-email"].key(email);
}

/**
 * Queues the mails telling the agent (welcome, or approval when approved automatically) and
 * staff. A mail that cannot be sent is logged and does not undo the registration (docs/product.md#registration-and-accounts).
 * Claimed once per agent, so a registration sent again after a lost answer is not mailed twice.
 */
export function sendRegistrationMails(
  services: Pick<Services, "config" | "notifier">,
  agent: Agent,
  agentLoginUrl: string,
  now = new Date(),
): void {
  const toAgent =
    agent.status === "approved"
      ? { mail: approvalMail(agent, agentLoginUrl), about: `the approval mail to agent ${agent.id}` }
      : { mail: agentWelcomeMail(agent, agentLoginUrl), about: `the welcome mail to agent ${agent.id}` };
  const toStaff = {
    mail: staffRegistrationMail(agent, services.config.supportEmail),
    about: `the staff notice of agent ${agent.id}'s registration`,
  };
  services.notifier.enqueueAll([toAgent, toStaff], { once: CLAIM_KEYS.registration.key(agent.id), now });
}
