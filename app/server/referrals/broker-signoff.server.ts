/**
 * The brokers' sign-off on a referral agreement (docs/decisions/0051): the rows an agent's
 * choice and a broker's approval add to BrokerSignoffs, the signed, expiring link a broker
 * is mailed, and the agreement put in force once both agents signed and both brokers
 * signed off on its text.
 */
import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { Cookie } from "@remix-run/node";
import {
  BROKER_APPROVAL_MESSAGES,
  BROKER_LINK_DAYS,
  brokerStanding,
  isBrokersLicense,
  isInForce,
  sideBroker,
  WRONG_LICENSES_PER_APPROVAL_LINK,
  type BrokerChoice,
} from "~/domain/referrals/broker-signoff";
import { partyEmail, termEnd } from "~/domain/referrals/agreement";
import type { ReferralParty } from "~/domain/referrals/status";
import type { Agent, BrokerSignoff, Referral } from "~/domain/workbook/tabs";
import { createLinkToken, linkTokenCookie, readLinkToken } from "../auth/link-token.server";
import type { Config } from "../config.server";
import { approvalRequestMail, brokerApprovedMail, brokerCopyMail, brokerLinkEndedMail } from "../mail/broker-signoff-mail.server";
import { signedAgreementMails } from "../mail/referral-mail.server";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";
import { agreementPdf } from "./agreement-pdf.server";
import { brokerSignoffNotice } from "../push/notices.server";
import { addEvent } from "./referral-events.server";
import type { ReferralServices } from "./referral-notify.server";

const PURPOSE = "broker-approval";
const LINK_TTL_SECONDS = BROKER_LINK_DAYS * 24 * 60 * 60;
export const BROKER_APPROVAL_PATH = "/broker-approval";

const SIDE_WORDS = { referring: "referring", receiving: "receiving" } as const;

/** The broker rows of one referral, oldest first. */
export function signoffsOf({ store }: Pick<ReferralServices, "store">, referralId: string): BrokerSignoff[] {
  return [...store.brokerSignoffs.by("referralId", referralId)].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

function baseRow(referral: Referral, side: ReferralParty, now: Date) {
  const broker = sideBroker(referral, side);
  return {
    id: newId(),
    referralId: referral.id,
    side,
    agreementHash: referral.agreementHash ?? "",
    brokerName: broker.name,
    brokerLicense: broker.license,
    brokerEmail: broker.email,
    createdAt: now.toISOString(),
  };
}

/**
 * Records an agent's choice for their broker on the agreement's current text: attested
 * (the broker gets a copy once in force), or requested: the broker is mailed a link that
 * works for BROKER_LINK_DAYS, bound to this text, so a change of terms ends it.
 */
export async function recordAgentChoice(
  services: ReferralServices,
  referral: Referral,
  side: ReferralParty,
  options: { member: Agent; choice: BrokerChoice; now: Date; link: string },
): Promise<BrokerSignoff> {
  const { member, choice, now } = options;
  const expiresAt = choice === "requested" ? new Date(now.getTime() + LINK_TTL_SECONDS * 1000).toISOString() : undefined;
  const row = await services.store.brokerSignoffs.insert({
    ...baseRow(referral, side, now),
    kind: choice,
    byEmail: member.email,
    expiresAt,
  });
  const broker = sideBroker(referral, side);
  if (choice === "attested") {
    await addEvent(
      services,
      referral,
      "broker-attested",
      member.email,
      `${member.fullName} attested that ${broker.name} authorizes them to sign.`,
      now,
    );
    return row;
  }
  await addEvent(
    services,
    referral,
    "broker-requested",
    member.email,
    `${member.fullName} asked ${broker.name} to approve (link sent to ${broker.email}).`,
    now,
  );
  const token = createLinkToken(
    services.config.sessionSecrets,
    PURPOSE,
    { fields: [referral.id, side, row.id], bound: [row.agreementHash], ttlSeconds: LINK_TTL_SECONDS },
    now.getTime(),
  );
  const url = new URL(`${BROKER_APPROVAL_PATH}?token=${encodeURIComponent(token)}`, options.link).toString();
  services.notifier.enqueue(
    {
      mail: approvalRequestMail(referral, side, broker, { url, expiresAt: expiresAt ?? "" }),
      about: `the approval request of referral ${referral.id} to its ${SIDE_WORDS[side]} broker`,
    },
    { now, once: CLAIM_KEYS["broker-approval"].key(row.id) },
  );
  return row;
}

export type BrokerLinkRefusal = "invalid" | "expired" | "used" | "closed" | "ended";
export type BrokerLink =
  { ok: true; referral: Referral; side: ReferralParty; request: BrokerSignoff } | { ok: false; reason: BrokerLinkRefusal };

export const BROKER_LINK_REFUSALS: Record<BrokerLinkRefusal, string> = {
  invalid:
    "This approval link is not valid: it may be mistyped, or for an earlier text of the agreement. Ask the agent to send a new one from the referral's page.",
  expired: "This approval link has expired. The agent can ask you again from the referral's page.",
  used: "This agreement is already approved for your side: nothing more is needed.",
  closed: "This agreement is no longer open: it was declined or withdrawn.",
  ended:
    "This approval link can no longer be used: a wrong license number was typed too many times. We have told the agent who sent it; ask them to send you a new link from the referral's page.",
};

/**
 * Whether a later row for the side and text came after the link's request: the request
 * ended early (endLink), whatever the agent asked since.
 */
function isEnded(signoffs: readonly BrokerSignoff[], request: BrokerSignoff): boolean {
  return signoffs.some(
    (row) =>
      row.side === request.side &&
      row.agreementHash === request.agreementHash &&
      row.kind === "requested" &&
      row.id !== request.id &&
      row.createdAt > request.createdAt &&
      row.expiresAt !== undefined &&
      row.expiresAt <= row.createdAt,
  );
}

/**
 * The referral and side a broker's link is for, when it is genuine and unexpired, was made
 * for the agreement's current text, was not ended for wrong license numbers, and that
 * side's broker has not approved it yet.
 */
export function readBrokerLink(services: Pick<ReferralServices, "store" | "config">, token: unknown, now: Date): BrokerLink {
  const { store } = services;
  const reading = readLinkToken(
    services.config.sessionSecrets,
    PURPOSE,
    token,
    { fieldCount: 3, boundFor: ([referralId = ""]) => [store.referrals.get(referralId)?.agreementHash ?? ""] },
    now.getTime(),
  );
  if (!reading.ok) return reading;
  const [referralId = "", side = "", requestId = ""] = reading.fields;
  const referral = store.referrals.get(referralId);
  const request = signoffsOf(services, referralId).find((row) => row.id === requestId);
  if (!referral || !request || request.kind !== "requested" || request.side !== side) return { ok: false, reason: "invalid" };
  if (brokerStanding(referral, signoffsOf(services, referral.id), request.side, now).state === "approved")
    return { ok: false, reason: "used" };
  if (referral.status !== "proposed") return { ok: false, reason: "closed" };
  if (isEnded(signoffsOf(services, referral.id), request)) return { ok: false, reason: "ended" };
  return { ok: true, referral, side: request.side, request };
}

/** The approval link's token, out of the address (path "/": the approval page posts to its own data URL too). */
export function brokerLinkCookie(config: Pick<Config, "isProduction">): Cookie {
  return linkTokenCookie(config, { name: "__broker_link", path: "/", maxAgeSeconds: LINK_TTL_SECONDS });
}

export type BrokerApprovalResult =
  { ok: true; referral: Referral } | { ok: false; status: 400 | 409; link?: BrokerLinkRefusal; field?: "signedLicense"; message: string };

/**
 * Ends a link that took too many wrong license numbers: a copy of its request row that
 * expires as it is written, so the side's standing reads as an expired request (the agent
 * may ask again) and the link is refused from now on, on every instance and after a
 * restart. The timeline says why, and the agent who asked is mailed.
 */
async function endLink(
  services: ReferralServices,
  referral: Referral,
  request: BrokerSignoff,
  options: { now: Date; link: string },
): Promise<void> {
  const { now } = options;
  await services.store.brokerSignoffs.insert({ ...request, id: newId(), expiresAt: now.toISOString(), createdAt: now.toISOString() });
  const broker = sideBroker(referral, request.side);
  await addEvent(
    services,
    referral,
    "broker-link-ended",
    "",
    `The approval link sent to ${broker.email} was ended after ${WRONG_LICENSES_PER_APPROVAL_LINK} wrong license numbers; nothing was approved.`,
    now,
  );
  const recipient = services.store.agents.by("email", request.byEmail)[0];
  services.notifier.enqueue(
    {
      mail: brokerLinkEndedMail(referral, request.byEmail, broker, options.link),
      about: `the mail that the approval link of referral ${referral.id} was ended`,
      member: recipient ? { recipient, kind: "referrals", reason: "you are a party to this referral" } : undefined,
    },
    { now, once: CLAIM_KEYS["broker-link-ended"].key(request.id) },
  );
}

/**
 * Records a broker's approval, like an agent's signature: typed name and license number,
 * time, IP, user agent, and the text's SHA-256. The typed license must be the one the
 * agreement names for the link's side; the WRONG_LICENSES_PER_APPROVAL_LINK-th wrong one
 * ends the link, so a link cannot be used to guess a broker's number. The agents are told;
 * the agreement goes in force if this was the last sign-off.
 */
export function approveAsBroker(
  services: ReferralServices & { auth: { limits: Pick<Services["auth"]["limits"], "brokerApprovalGuesses"> } },
  options: {
    token: unknown;
    signedName: string;
    signedLicense: string;
    ip: string;
    userAgent: string;
    now: Date;
    link: (id: string) => string;
  },
): Promise<BrokerApprovalResult> {
  const { now } = options;
  const first = readBrokerLink(services, options.token, now);
  if (!first.ok) return Promise.resolve({ ok: false, status: 409, link: first.reason, message: BROKER_LINK_REFUSALS[first.reason] });
  return services.writeQueues.serially(`referral:${first.referral.id}`, async () => {
    // Read again in the queue: an approval through another tab may have just been stored.
    const found = readBrokerLink(services, options.token, now);
    if (!found.ok) return { ok: false, status: 409, link: found.reason, message: BROKER_LINK_REFUSALS[found.reason] };
    const { referral, side, request } = found;
    const broker = sideBroker(referral, side);
    if (!isBrokersLicense(options.signedLicense, broker.license)) {
      if (services.auth.limits.brokerApprovalGuesses.hit(request.id).allowed)
        return { ok: false, status: 400, field: "signedLicense", message: BROKER_APPROVAL_MESSAGES.anotherBroker };
      await endLink(services, referral, request, { now, link: options.link(referral.id) });
      return { ok: false, status: 409, link: "ended", message: BROKER_LINK_REFUSALS.ended };
    }
    await services.store.brokerSignoffs.insert({
      ...baseRow(referral, side, now),
      kind: "approved",
      byEmail: "",
      signedName: options.signedName,
      signedLicense: options.signedLicense,
      signedIp: options.ip,
      signedAgent: options.userAgent,
    });
    await addEvent(
      services,
      referral,
      "broker-approved",
      broker.email,
      `Approved by ${options.signedName} (license ${options.signedLicense}) for ${broker.name}.`,
      now,
    );
    const link = options.link(referral.id);
    for (const to of [referral.referringEmail, referral.receivingEmail]) {
      const recipient = services.store.agents.by("email", to)[0];
      services.notifier.enqueue(
        {
          mail: brokerApprovedMail(referral, to, { brokerName: broker.name, signedName: options.signedName }, link),
          about: `the broker approval mail of referral ${referral.id} to ${to}`,
          member: recipient ? { recipient, kind: "referrals", reason: "you are a party to this referral" } : undefined,
          // The push goes to the agent whose broker this is: the other agent hears of it by mail.
          push:
            to === partyEmail(referral, side)
              ? { notice: brokerSignoffNotice({ referral, brokerName: broker.name }), urgency: "normal" }
              : undefined,
        },
        { now, once: CLAIM_KEYS["broker-approved"].key(referral.id, side, referral.agreementHash ?? "", to) },
      );
    }
    return { ok: true, referral: await putInForceIfReady(services, referral, { by: broker.email, now, link }) };
  });
}

/**
 * Puts a proposed agreement in force once both agents signed and both brokers signed off
 * on its text: status signed, the term from now, the signed copies to both agents and
 * each broker's copy. Otherwise it is returned as it was.
 */
export async function putInForceIfReady(
  services: ReferralServices,
  referral: Referral,
  options: { by: string; now: Date; link: string; log?: Pick<Console, "error"> },
): Promise<Referral> {
  const { by, now, link, log = console } = options;
  const signoffs = signoffsOf(services, referral.id);
  if (referral.status !== "proposed" || !isInForce(referral, signoffs, now)) return referral;
  const signedAt = now.toISOString();
  const updated = await services.store.referrals.update(referral.id, {
    status: "signed",
    signedAt,
    termEndsAt: termEnd(now, referral.termMonths).toISOString(),
    updatedAt: signedAt,
  });
  await addEvent(services, updated, "signed", by, "Both parties signed and both brokers signed off: the agreement is in force.", now);
  try {
    const pdf = await agreementPdf(services, updated);
    services.notifier.enqueueAll(
      signedAgreementMails(updated, pdf, link).map((mail) => ({ mail, about: `the signed copy of referral ${updated.id} to ${mail.to}` })),
    );
    for (const side of ["referring", "receiving"] as const) {
      const broker = sideBroker(updated, side);
      if (!broker.email) continue;
      services.notifier.enqueue(
        { mail: brokerCopyMail(updated, side, broker, pdf, link), about: `the ${side} broker's copy of referral ${updated.id}` },
        { now, once: CLAIM_KEYS["broker-copy"].key(updated.id, side) },
      );
    }
  } catch (error) {
    log.error(`Referral ${updated.id} is in force, but its PDF could not be made: the signed copies were not mailed.`, error);
  }
  return updated;
}
