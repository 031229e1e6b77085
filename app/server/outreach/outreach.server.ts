/**
 * Invitations to join the network (docs/decisions/0082): a member invites colleagues by the
 * addresses they type, each gets one mail in the member's name with a signed 30-day link to
 * registration, and the member sees what became of each. Only typed addresses are mailed; an
 * address is invited at most once a month whoever asks (claimed as a chain in SendClaims, so
 * two instances send one mail); suppressed addresses and members' addresses are never mailed.
 */
import { CLAIM_KEYS } from "~/domain/claim-keys";
import {
  alreadyMemberMessage,
  invitedRecently,
  OUTREACH_ADDRESS_DAYS,
  OUTREACH_LINK_DAYS,
  OUTREACH_MESSAGES,
  outreachOutcome,
  overMemberLimit,
  reminderAllowed,
  type OutreachOutcome,
} from "~/domain/outreach";
import type { Colleague } from "~/domain/outreach-forms";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent, OutreachRow } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { createLinkToken, readLinkToken } from "../auth/link-token.server";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";
import { outreachMail, type RequestOutline } from "./outreach-mail.server";
import { invitationsAvailable, withStopInviting } from "./stop-inviting.server";
import { isAddressSuppressed } from "./suppression.server";
import { requestOutline } from "./refer-outside.server";

type OutreachServices = Pick<Services, "store" | "notifier" | "writeQueues" | "sendClaims" | "config">;

const LINK_PURPOSE = "outreach-registration";
const DAY_MS = 24 * 60 * 60 * 1000;

export type InviteResult =
  { ok: true; sent: number } | { ok: false; status: number; fieldErrors: Record<string, string[]>; formErrors: string[]; sent: number };

type Invitation = {
  inviter: Agent;
  colleagues: readonly (Colleague & { fieldName?: string })[];
  note: string | undefined;
  /** The request the colleague is asked to take (docs/decisions/0083), with what the mail may say of it. */
  request?: { id: string; outline: RequestOutline };
  now: Date;
  httpRequest?: Request;
};

/** The form field a colleague's address came from, where its message goes. */
function fieldOf(colleague: { fieldName?: string }, index: number): string {
  return colleague.fieldName ?? `colleagues[${index}].email`;
}

/** Why an address may not be invited now, or undefined when it may. */
function addressRefusal(
  services: Pick<Services, "store" | "sendClaims">,
  inviter: Agent,
  colleague: Colleague,
  now: Date,
): string | undefined {
  if (colleague.email === inviter.email) return OUTREACH_MESSAGES.ownAddress;
  const member = services.store.agents.by("email", colleague.email)[0];
  if (member) return alreadyMemberMessage(member.fullName);
  if (isAddressSuppressed(services, colleague.email)) return OUTREACH_MESSAGES.suppressed;
  if (recentlyMailed(services, colleague.email, now)) return OUTREACH_MESSAGES.recentlyInvited;
  return undefined;
}

/** An invitation reached the address within the month: by the tab's rows, or by a claim another instance made that its row has not shown yet. */
function recentlyMailed(services: Pick<Services, "store" | "sendClaims">, email: string, now: Date): boolean {
  const lastClaim = services.sendClaims.lastLinkClaimedAt(CLAIM_KEYS.outreach.key(email));
  const claimedRecently = lastClaim !== undefined && Date.parse(lastClaim) > now.getTime() - OUTREACH_ADDRESS_DAYS * DAY_MS;
  return claimedRecently || invitedRecently(services.store.outreach.by("email", email), now);
}

/**
 * Invites the colleagues: all refused (nothing sent) when any address may not be invited or
 * the member's limits would be passed; else each address is claimed and, when won, its row
 * stored and its mail queued. An address another instance claimed meanwhile is refused beside
 * its field, the others are sent. One decision at a time per member in this process.
 */
export function inviteColleagues(services: OutreachServices, invitation: Invitation): Promise<InviteResult> {
  const { inviter, colleagues, now } = invitation;
  return services.writeQueues.serially(`outreach:${inviter.id}`, async () => {
    const fieldErrors: Record<string, string[]> = {};
    if (!invitationsAvailable(services.config))
      return { ok: false, status: 503, fieldErrors, formErrors: [OUTREACH_MESSAGES.unavailable], sent: 0 };
    colleagues.forEach((colleague, index) => {
      const refusal = addressRefusal(services, inviter, colleague, now);
      if (refusal) fieldErrors[fieldOf(colleague, index)] = [refusal];
    });
    if (Object.keys(fieldErrors).length > 0) return { ok: false, status: 400, fieldErrors, formErrors: [], sent: 0 };
    const sentAt = services.store.outreach.by("inviterId", inviter.id).map((row) => row.createdAt);
    const overLimit = overMemberLimit(sentAt, colleagues.length, now);
    if (overLimit) return { ok: false, status: 429, fieldErrors, formErrors: [overLimit], sent: 0 };

    const results = await Promise.allSettled(colleagues.map((colleague) => claimAndStore(services, invitation, colleague)));
    const { request, httpRequest } = invitation;
    const sent = results.flatMap((result) => (result.status === "fulfilled" && result.value ? [result.value] : []));
    // Every stored row is mailed, even when another could not be written: a retry finds those addresses invited.
    for (const { row, link } of sent)
      mailInvitation(services, { inviter, row, request: request?.outline, now, httpRequest }, { claimed: [link] });
    const failed = results.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    colleagues.forEach((colleague, index) => {
      const result = results[index];
      if (result?.status === "fulfilled" && !result.value) fieldErrors[fieldOf(colleague, index)] = [OUTREACH_MESSAGES.recentlyInvited];
    });
    if (sent.length < colleagues.length) return { ok: false, status: 409, fieldErrors, formErrors: [], sent: sent.length };
    return { ok: true, sent: sent.length };
  });
}

/**
 * The row and the chain link its mail is claimed under, once the address's next link is won;
 * undefined when another instance took it. A row that cannot be stored rejects.
 */
async function claimAndStore(
  services: OutreachServices,
  invitation: Invitation,
  colleague: Colleague,
): Promise<{ row: OutreachRow; link: string } | undefined> {
  const id = newId();
  const link = services.sendClaims.nextInChain(CLAIM_KEYS.outreach.key(colleague.email));
  if (!(await services.sendClaims.claimAs(link, id, invitation.now))) return undefined;
  const row = await services.store.outreach
    .insert({
      id,
      inviterId: invitation.inviter.id,
      name: colleague.name,
      email: colleague.email,
      licenseNumber: colleague.licenseNumber,
      licenseState: colleague.licenseState ?? "",
      note: invitation.note,
      requestId: invitation.request?.id,
      createdAt: invitation.now.toISOString(),
      openedAt: undefined,
      remindedAt: undefined,
      agentId: undefined,
    })
    .catch(async (error: unknown) => {
      // The claim stands without its mail: recorded as failed, so it does not keep the address from being invited again.
      await services.sendClaims.recordFailure(link, error, invitation.now).catch(() => undefined);
      throw error;
    });
  return { row, link };
}

/** The signed registration link of an invitation: its row's id, for 30 days from `now`. */
export function outreachLink(
  services: Pick<Services, "config">,
  row: Pick<OutreachRow, "id" | "email">,
  now: Date,
  httpRequest?: Request,
): string {
  const token = createLinkToken(
    services.config.sessionSecrets,
    LINK_PURPOSE,
    { fields: [row.id], bound: [row.email], ttlSeconds: OUTREACH_LINK_DAYS * 24 * 60 * 60 },
    now.getTime(),
  );
  return publicUrl(services.config, `/register?invitation=${encodeURIComponent(token)}`, httpRequest);
}

function mailInvitation(
  services: OutreachServices,
  options: { inviter: Agent; row: OutreachRow; request?: RequestOutline; now: Date; httpRequest?: Request; reminder?: boolean },
  rule: { claimed?: readonly string[]; once?: string },
): void {
  const { inviter, row, request, now, httpRequest, reminder } = options;
  const mail = outreachMail({
    inviter,
    invitee: row,
    note: row.note,
    link: outreachLink(services, row, now, httpRequest),
    request,
    reminder,
  });
  services.notifier.enqueue(
    {
      mail: withStopInviting(mail, {
        config: services.config,
        email: row.email,
        reason: `${inviter.fullName}, a member of ${PRODUCT_NAME}, typed your address to invite you; the network never mails addresses nobody typed`,
        request: httpRequest,
      }),
      about: `the invitation to join ${row.id} from agent ${inviter.id}`,
    },
    { ...rule, now },
  );
}

export type LinkReading = { ok: true; row: OutreachRow } | { ok: false };

/** The invitation a registration link names, when the link is genuine and unexpired and its row still there. */
export function readOutreachLink(services: Pick<Services, "config" | "store">, token: unknown, now: Date): LinkReading {
  const reading = readLinkToken(
    services.config.sessionSecrets,
    LINK_PURPOSE,
    token,
    { fieldCount: 1, boundFor: ([id]) => [services.store.outreach.get(id ?? "")?.email ?? ""] },
    now.getTime(),
  );
  const row = reading.ok ? services.store.outreach.get(reading.fields[0]!) : undefined;
  return row ? { ok: true, row } : { ok: false };
}

/** Stamps the first opening of an invitation's link; a failed write is logged, the page still opens. */
export async function markOpened(services: Pick<Services, "store">, row: OutreachRow, now: Date): Promise<void> {
  if (row.openedAt || row.agentId) return;
  await services.store.outreach.update(row.id, { openedAt: now.toISOString() }).catch((error: unknown) => {
    console.error(`Outreach: could not stamp invitation ${row.id} opened`, error);
  });
}

/** The member who invited a new agent, from the invitation their registration draft names. */
export function inviterOf(services: Pick<Services, "store">, outreachId: string | undefined): string | undefined {
  return outreachId ? services.store.outreach.get(outreachId)?.inviterId : undefined;
}

/** Records on the invitation the agent who registered through it; a failed write is logged, the agent's `invitedBy` holds the credit. */
export async function recordRegistration(services: Pick<Services, "store">, outreachId: string | undefined, agent: Agent): Promise<void> {
  const row = outreachId ? services.store.outreach.get(outreachId) : undefined;
  if (!row || row.agentId) return;
  await services.store.outreach.update(row.id, { agentId: agent.id }).catch((error: unknown) => {
    console.error(`Outreach: could not record agent ${agent.id} on invitation ${row.id}`, error);
  });
}

export type SentInvitation = {
  id: string;
  name: string;
  email: string;
  sentOn: string;
  outcome: OutreachOutcome;
  canRemind: boolean;
  reminded: boolean;
};

/** The member's invitations, newest first, with what became of each. */
export function invitationsSentBy(services: Pick<Services, "store">, inviter: Pick<Agent, "id">, now: Date): SentInvitation[] {
  return services.store.outreach
    .by("inviterId", inviter.id)
    .toSorted((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    .map((row) => {
      const agent = row.agentId ? services.store.agents.get(row.agentId) : undefined;
      return {
        id: row.id,
        name: row.name,
        email: row.email,
        sentOn: row.createdAt.slice(0, 10),
        outcome: outreachOutcome(row, agent, now),
        canRemind: reminderAllowed(row, now) && !agent && services.store.agents.by("email", row.email).length === 0,
        reminded: row.remindedAt !== undefined,
      };
    });
}

export type RemindResult = { ok: true } | { ok: false; status: number; message: string };

/**
 * The member's one reminder, 7 days after the invitation, while the colleague has not joined:
 * stamped on the row, claimed once, with a fresh 30-day link. Not to a suppressed address.
 */
export function remindColleague(
  services: OutreachServices,
  options: { inviter: Agent; outreachId: string; now: Date; httpRequest?: Request },
): Promise<RemindResult> {
  const { inviter, outreachId, now, httpRequest } = options;
  return services.writeQueues.serially(`outreach:${inviter.id}`, async () => {
    if (!invitationsAvailable(services.config)) return { ok: false, status: 503, message: OUTREACH_MESSAGES.unavailable };
    const row = services.store.outreach.get(outreachId);
    if (!row || row.inviterId !== inviter.id) return { ok: false, status: 404, message: OUTREACH_MESSAGES.reminderNotDue };
    const joined = services.store.agents.by("email", row.email).length > 0;
    if (!reminderAllowed(row, now) || joined) return { ok: false, status: 409, message: OUTREACH_MESSAGES.reminderNotDue };
    if (isAddressSuppressed(services, row.email)) return { ok: false, status: 409, message: OUTREACH_MESSAGES.suppressed };
    const reminded = await services.store.outreach.update(row.id, { remindedAt: now.toISOString() });
    // The reminder of a request's invitation names the request's outline again, as the first mail did.
    const request = row.requestId ? services.store.requests.get(row.requestId) : undefined;
    mailInvitation(
      services,
      { inviter, row: reminded, request: request && requestOutline(request), now, httpRequest, reminder: true },
      { once: CLAIM_KEYS["outreach-reminder"].key(row.id) },
    );
    return { ok: true };
  });
}
