/**
 * The workbook contract: the tabs staff see in the spreadsheet and their header rows.
 * `columns.ts` holds the kinds of column, `rows.ts` how a row's text cells become a
 * typed record and back.
 *
 * Rows are edited by people, so parsing is tolerant (cells trimmed, enumerations
 * case-insensitive, blank optional cells allowed) and strict only where a wrong
 * value would mislead the app (a missing id, an unknown status, an unreadable time).
 *
 * To add a column, append it to a tab's `columns`; to add a tab, define it with
 * `defineTab` (`define-tab.ts`) and list it in `WORKBOOK`. The store and its replica are generic over
 * these definitions and need no change.
 */
import { REQUEST_TYPE_VALUES, SPECIALTIES } from "../enums";
import { MAIL_KINDS, mailOffDoubts } from "../notifications";
import { PUSH_KINDS, pushOnDoubts } from "../push";
import {
  choice,
  count,
  email,
  flag,
  list,
  optionalNameList,
  optionalChoice,
  optionalText,
  optionalTime,
  placeList,
  reference,
  requiredText,
  serviceRadius,
  stateCode,
  text,
  time,
} from "./columns";
import { defineTab, type TabIndexName, type TabRecord } from "./define-tab";
import { REFERRAL_EVENTS_TAB, REFERRALS_TAB } from "./referral-tabs";
import { BROKER_SIGNOFFS_TAB, BROKERS_TAB } from "./broker-tabs";
import { INVITATIONS_TAB } from "./invitation-tab";
import { BLOCKS_TAB, MODERATION_TAB, REPORTS_TAB } from "./moderation-tabs";
import { PUSH_SUBSCRIPTIONS_TAB } from "./push-tab";
import { REVIEWS_TAB } from "./review-tab";
import { SUPPRESSIONS_TAB } from "./suppression-tab";
import { OUTREACH_TAB } from "./outreach-tab";

/** suspended: set by staff to end a member's sessions and hide everything they wrote (docs/staff-guide.md). */
export const AGENT_STATUSES = ["pending", "approved", "rejected", "suspended"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
/** The decisions on an application that are mailed to the applicant. */
const MAILED_DECISIONS = ["approved", "rejected"] as const;
const MEMBERSHIP_TYPES = ["founder", "vip", "member"] as const;
export type MembershipType = (typeof MEMBERSHIP_TYPES)[number];
/** hidden: set by staff to take a request off every page, its poster's included. */
const REQUEST_STATUSES = ["active", "deleted", "expired", "hidden"] as const;

const BROKER_SOURCES = ["trec", "member"] as const;

export const AGENTS_TAB = defineTab({
  name: "Agents",
  appendOnly: false,
  columns: {
    id: requiredText(),
    fullName: text(),
    email: email({ required: true }),
    phone: text(),
    state: stateCode(),
    city: text(),
    zipCode: text(),
    licenseNumber: text(),
    licenseState: stateCode(),
    licenseExpiration: text(),
    brokerage: text(),
    brokerEmail: email(),
    specialties: list(SPECIALTIES),
    bio: text(),
    photoUrl: text(),
    membershipType: choice(MEMBERSHIP_TYPES, "member"),
    vipCode: text(),
    status: choice(AGENT_STATUSES, "pending"),
    statusNote: text(),
    passwordHash: text(),
    createdAt: time(),
    updatedAt: optionalTime(),
    /** Sessions that began at or before this time are over: set by logging out. */
    sessionsEndedAt: optionalTime(),
    /** The license check's verdict for staff, e.g. "TX active, name matches, broker matches" or "check OREC". */
    licenseCheck: optionalText(),
    licenseCheckedAt: optionalTime(),
    /** The facts behind the verdict: license type, status, expiration, name on the license, sponsoring broker. */
    licenseCheckNote: optionalText(),
    /** The kinds of mail the member turned off (docs/staff-guide.md lists them); blank means all on. */
    mailOff: optionalNameList(MAIL_KINDS),
    /** The sponsoring broker's license number: referral fees are paid broker to broker. */
    brokerLicenseNumber: optionalText(),
    /**
     * The decisions (approved, rejected) whose mail an instance claimed, stamped before it
     * is sent: with the SendClaims row, so deleting that row cannot send it again.
     */
    decisionsMailed: optionalNameList(MAILED_DECISIONS),
    /** The places the agent serves, "City, ST; City, ST": the matching of requests reads them. */
    placesServed: placeList(),
    /** How far around those places the agent serves, in miles (blank: 25). */
    serviceRadius: serviceRadius(),
    /**
     * Where the broker columns came from: `trec` (TREC's license data; a reload follows a
     * change of sponsor) or `member` (typed or corrected by the member; kept). Blank is member.
     */
    brokerFrom: optionalChoice(BROKER_SOURCES),
    pushOn: optionalNameList(PUSH_KINDS),
    /** The key of the member's private calendar feed's link; blank until they make one, and a new one ends the old link. */
    calendarKey: optionalText(),
    /** The member whose invitation brought this agent in (their agent id); blank for everyone else. */
    invitedBy: optionalText(),
  },
  indexes: {
    email: (agent) => agent.email,
    calendarKey: (agent) => agent.calendarKey,
    status: (agent) => agent.status,
    state: (agent) => agent.state,
    specialty: (agent) => agent.specialties,
  },
  doubts: (agent) => [...mailOffDoubts(agent.mailOff), ...pushOnDoubts(agent.pushOn)],
});

export const REQUESTS_TAB = defineTab({
  name: "Requests",
  appendOnly: false,
  columns: {
    id: requiredText(),
    requestType: choice(REQUEST_TYPE_VALUES),
    title: text(),
    location: text(),
    state: stateCode(),
    specialty: text(),
    priceRange: text(),
    clientType: text(),
    timeline: text(),
    contactPreference: text(),
    listingAddress: text(),
    listingMLS: text(),
    description: text(),
    urgent: flag(),
    agentEmail: email({ required: true }),
    agentName: text(),
    status: choice(REQUEST_STATUSES, "active"),
    responses: count(),
    createdAt: time(),
    updatedAt: optionalTime(),
    expiresAt: optionalTime(),
    /** When the poster was last mailed about a response: at most one such mail per request every 10 minutes. */
    lastNotifiedAt: optionalTime(),
    /** The poster's deadline for the agents they invited to respond (1 to 96 hours after posting or editing). */
    respondBy: optionalTime(),
  },
  indexes: {
    agentEmail: (request) => request.agentEmail,
    status: (request) => request.status,
  },
});

export const RESPONSES_TAB = defineTab({
  name: "Responses",
  appendOnly: true,
  columns: {
    id: requiredText(),
    requestId: reference(),
    fromEmail: email({ required: true }),
    fromName: text(),
    toEmail: email({ required: true }),
    message: text(),
    createdAt: time(),
  },
  indexes: {
    requestId: (response) => response.requestId,
    fromEmail: (response) => response.fromEmail,
    toEmail: (response) => response.toEmail,
  },
});

/** How a message reached the site when not by its message box: a reply to a notification mail. */
const MESSAGE_CHANNELS = ["email"] as const;

export const MESSAGES_TAB = defineTab({
  name: "Messages",
  appendOnly: true,
  columns: {
    id: requiredText(),
    conversationId: reference(),
    fromEmail: email({ required: true }),
    toEmail: email({ required: true }),
    text: text(),
    createdAt: time(),
    /** "email" for a reply that came by mail (docs/decisions/0071); blank for one sent on the site. */
    via: optionalChoice(MESSAGE_CHANNELS),
  },
  indexes: {
    conversationId: (message) => message.conversationId,
    fromEmail: (message) => message.fromEmail,
    toEmail: (message) => message.toEmail,
  },
});

/**
 * One row per member per conversation they have opened or been mailed about: how far
 * they have read (unread counts survive reloads and other devices) and when they were
 * last mailed about it (the notification throttle). Updated in place, never deleted.
 */
export const CONVERSATION_MEMBERS_TAB = defineTab({
  name: "ConversationMembers",
  appendOnly: false,
  columns: {
    id: requiredText(),
    conversationId: reference(),
    agentEmail: email({ required: true }),
    lastReadAt: optionalTime(),
    lastNotifiedAt: optionalTime(),
  },
  indexes: {
    conversationId: (row) => row.conversationId,
    agentEmail: (row) => row.agentEmail,
  },
  // Ids are conversation/e-mail, so two instances can add the same row at once: keep the furthest read and latest mail.
  mergeDuplicates: (first, later) => ({
    ...first,
    lastReadAt: latestTime(first.lastReadAt, later.lastReadAt),
    lastNotifiedAt: latestTime(first.lastNotifiedAt, later.lastNotifiedAt),
  }),
});

function latestTime(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a >= b ? a : b;
}

export const CONTACT_TAB = defineTab({
  name: "Contact",
  appendOnly: true,
  columns: {
    id: requiredText(),
    name: text(),
    email: email({ required: true }),
    subject: text(),
    category: text(),
    message: text(),
    agentLicense: text(),
    // Not a state code: the contact form stores "Not provided" when no state was chosen.
    state: text(),
    createdAt: time(),
  },
  indexes: {
    email: (contact) => contact.email,
  },
});

export const MARK_KINDS = ["interested", "saved"] as const;
export type MarkKind = (typeof MARK_KINDS)[number];
const MARK_STATUSES = ["active", "removed"] as const;

/**
 * A member's Interested and Save marks on requests. Unsaving sets the status to
 * removed rather than deleting the row, so the tab keeps every mark ever made.
 */
const MARKS_TAB = defineTab({
  name: "Marks",
  appendOnly: false,
  columns: {
    id: requiredText(),
    agentEmail: email({ required: true }),
    requestId: reference(),
    kind: choice(MARK_KINDS),
    status: choice(MARK_STATUSES, "active"),
    createdAt: time(),
    updatedAt: optionalTime(),
  },
  indexes: {
    agentEmail: (mark) => mark.agentEmail,
    requestId: (mark) => mark.requestId,
  },
});

const SEND_OUTCOMES = ["claimed", "failed"] as const;

/** A key of a throttled chain, `<subject>#<link>` (docs/decisions/0029): its subject and link number. */
export function chainLink(key: string): { subject: string; link: number } | undefined {
  const match = /^(.+)#(\d+)$/.exec(key);
  return match ? { subject: match[1]!, link: Number(match[2]) } : undefined;
}

/**
 * Mails that must go out once however many app instances run (docs/decisions/0029): each
 * send is claimed by appending a row with its key; the first row of a key wins. A claim
 * whose mail then failed gets a second row, `failed`, with the error. Only ever added to.
 */
export const SEND_CLAIMS_TAB = defineTab({
  name: "SendClaims",
  appendOnly: true,
  columns: {
    id: requiredText(),
    /** What is sent, e.g. `decision:<agent id>:approved`, `digest:2026-11-23:<agent id>`. */
    key: requiredText(),
    /** The app instance that appended the row (host name and a random part). */
    instance: text(),
    outcome: choice(SEND_OUTCOMES, "claimed"),
    note: text(),
    claimedAt: time(),
  },
  indexes: {
    key: (claim) => claim.key,
    /** The subject of a throttled chain's link (`message:<conversation>/<email>` of `...#3`). */
    chain: (claim) => chainLink(claim.key)?.subject,
  },
  // A claim sent again after a lost answer may be stored twice: the first row is the claim.
  mergeDuplicates: (first) => first,
});

/** Every tab of the workbook, by its key: the property the store holds it under (`store.agents`). */
export const WORKBOOK = {
  agents: AGENTS_TAB,
  requests: REQUESTS_TAB,
  responses: RESPONSES_TAB,
  messages: MESSAGES_TAB,
  conversationMembers: CONVERSATION_MEMBERS_TAB,
  contact: CONTACT_TAB,
  marks: MARKS_TAB,
  referrals: REFERRALS_TAB,
  referralEvents: REFERRAL_EVENTS_TAB,
  sendClaims: SEND_CLAIMS_TAB,
  blocks: BLOCKS_TAB,
  reports: REPORTS_TAB,
  reviews: REVIEWS_TAB,
  invitations: INVITATIONS_TAB,
  brokerSignoffs: BROKER_SIGNOFFS_TAB,
  brokers: BROKERS_TAB,
  pushSubscriptions: PUSH_SUBSCRIPTIONS_TAB,
  suppressions: SUPPRESSIONS_TAB,
  moderation: MODERATION_TAB,
  outreach: OUTREACH_TAB,
} as const;

type Workbook = typeof WORKBOOK;
export type TabKey = keyof Workbook;
export type TabKeyRecord<Name extends TabKey> = TabRecord<Workbook[Name]>;
export type TabKeyIndex<Name extends TabKey> = TabIndexName<Workbook[Name]>;

export type Agent = TabKeyRecord<"agents">;
export type ReferralRequest = TabKeyRecord<"requests">;
export type RequestResponse = TabKeyRecord<"responses">;
export type Message = TabKeyRecord<"messages">;
export type ConversationMember = TabKeyRecord<"conversationMembers">;
export type ContactRow = TabKeyRecord<"contact">;
export type RequestMark = TabKeyRecord<"marks">;
export type Referral = TabKeyRecord<"referrals">;
export type ReferralEvent = TabKeyRecord<"referralEvents">;
export type SendClaim = TabKeyRecord<"sendClaims">;
export type Block = TabKeyRecord<"blocks">;
export type Report = TabKeyRecord<"reports">;
export type Review = TabKeyRecord<"reviews">;
export type Invitation = TabKeyRecord<"invitations">;
export type BrokerSignoff = TabKeyRecord<"brokerSignoffs">;
export type Broker = TabKeyRecord<"brokers">;
export type ModerationRow = TabKeyRecord<"moderation">;
export type OutreachRow = TabKeyRecord<"outreach">;
