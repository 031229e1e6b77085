import { randomInt } from "node:crypto";
import { buildDemoNetwork, type DemoNetwork } from "./demo-network";
import type { TabKey } from "~/domain/workbook/tabs";
import { memberRowId } from "~/server/messages/read-positions.server";
import type { Store } from "~/server/store/store.server";
import { insertInGroups } from "./store-cli";

/** The tabs the demo fills, in the order it fills them: an agent exists before anything refers to it. */
const DEMO_TAB_KEYS = [
  "agents",
  "requests",
  "responses",
  "messages",
  "conversationMembers",
  "referrals",
  "referralEvents",
  "brokerSignoffs",
  "reviews",
  "invitations",
  "brokers",
  "pushSubscriptions",
  "outreach",
  "suppressions",
] as const satisfies readonly TabKey[];
type DemoTabKey = (typeof DEMO_TAB_KEYS)[number];

export type DemoCounts = Record<DemoTabKey, number>;

export type SeedOutcome =
  /** The store was empty and now holds the whole demo network. */
  | { status: "seeded"; added: DemoCounts; loginEmail: string; password: string }
  /** An earlier run stopped part way; the missing demo rows were added. `password` is set when the login agent was among them. */
  | { status: "completed"; added: DemoCounts; loginEmail: string; password: string | undefined }
  /** Every demo row is there already: nothing was written. */
  | { status: "unchanged"; loginEmail: string }
  /** The store holds other data: nothing was written. */
  | { status: "refused"; reason: string };

export type SeedOptions = {
  /** Times in the demo are relative to this. */
  now: Date;
  /** The password every demo agent gets, asked for only when agents are to be written. */
  newPassword: () => string;
  hashPassword: (plain: string) => Promise<string>;
  /** Awaited before each group of rows is written (to keep to a quota). */
  beforeWrite?: () => Promise<void>;
  progress?: (message: string) => void;
};

type MissingRecords = {
  agents: DemoNetwork["agents"];
  requests: DemoNetwork["requests"];
  responses: DemoNetwork["responses"];
  messages: DemoNetwork["messages"];
  conversationMembers: DemoNetwork["reads"];
  referrals: DemoNetwork["referrals"];
  referralEvents: DemoNetwork["referralEvents"];
  brokerSignoffs: DemoNetwork["brokerSignoffs"];
  reviews: DemoNetwork["reviews"];
  invitations: DemoNetwork["invitations"];
  brokers: DemoNetwork["brokers"];
  pushSubscriptions: DemoNetwork["pushSubscriptions"];
  outreach: DemoNetwork["outreach"];
  suppressions: DemoNetwork["suppressions"];
};

/** A read position is stored in the row the messaging feature looks up for that member and conversation. */
function readRowId(read: DemoNetwork["reads"][number]): string {
  return memberRowId(read.conversationId, read.agentEmail);
}

/** The ids of each tab's stored rows, read once per seed. */
type StoredIds = ReadonlyMap<DemoTabKey, ReadonlySet<string>>;

/**
 * Messages and read positions are looked for where they are stored: with a database they are
 * not in the replica. The other tabs are read from the replica.
 */
async function storedIds(store: Store): Promise<StoredIds> {
  const rowsOf = async (name: DemoTabKey): Promise<readonly { id: string }[]> =>
    name === "messages" || name === "conversationMembers" ? store[name].readStored() : store[name].all();
  const ids = await Promise.all(DEMO_TAB_KEYS.map(async (name) => [name, new Set((await rowsOf(name)).map((row) => row.id))] as const));
  return new Map(ids);
}

/** The demo's records that are not in the store yet, by tab. */
function missingRecords(stored: StoredIds, network: DemoNetwork): MissingRecords {
  const missing = <T extends { id: string }>(name: DemoTabKey, records: readonly T[]) =>
    records.filter((record) => !stored.get(name)?.has(record.id));
  return {
    agents: missing("agents", network.agents),
    requests: missing("requests", network.requests),
    responses: missing("responses", network.responses),
    messages: missing("messages", network.messages),
    conversationMembers: network.reads.filter((read) => !stored.get("conversationMembers")?.has(readRowId(read))),
    referrals: missing("referrals", network.referrals),
    referralEvents: missing("referralEvents", network.referralEvents),
    brokerSignoffs: missing("brokerSignoffs", network.brokerSignoffs),
    reviews: missing("reviews", network.reviews),
    invitations: missing("invitations", network.invitations),
    brokers: missing("brokers", network.brokers),
    pushSubscriptions: missing("pushSubscriptions", network.pushSubscriptions),
    outreach: missing("outreach", network.outreach),
    suppressions: missing("suppressions", network.suppressions),
  };
}

function count(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? "" : "s"}`;
}

function countRows(stored: StoredIds): number {
  return [...stored.values()].reduce((sum, ids) => sum + ids.size, 0);
}

/**
 * Fills an empty store with the demo network, or completes a demo seed that stopped
 * part way. A store holding anything else is left alone. The Contact tab is not
 * looked at: contact-form messages may arrive before anyone seeds.
 */
export async function seedDemo(store: Store, options: SeedOptions): Promise<SeedOutcome> {
  await store.refresh();
  const network = buildDemoNetwork({ now: options.now, passwordHash: "" });
  const presentAgents = network.agents.flatMap((agent) => store.agents.get(agent.id) ?? []);

  const stored = await storedIds(store);
  if (presentAgents.length === 0 && countRows(stored) > 0) {
    return {
      status: "refused",
      reason:
        `The store already holds ${count(store.agents.all().length, "agent")} and ${count(store.requests.all().length, "request")} and is not the demo network. ` +
        "seed:demo only fills an empty store: point DATA_DIR (or GOOGLE_SHEETS_ID) at a new one to try the demo.",
    };
  }

  const missing = missingRecords(stored, network);
  if (DEMO_TAB_KEYS.every((name) => missing[name].length === 0)) {
    return { status: "unchanged", loginEmail: network.loginEmail };
  }

  // Agents added to a part-seeded demo share the password the first run printed; a fresh seed makes a new one.
  const knownHash = presentAgents.find((agent) => agent.passwordHash !== "")?.passwordHash;
  let password: string | undefined;
  let passwordHash = knownHash ?? "";
  if (knownHash === undefined && missing.agents.length > 0) {
    password = options.newPassword();
    passwordHash = await options.hashPassword(password);
  }

  const added: DemoCounts = {
    agents: 0,
    requests: 0,
    responses: 0,
    messages: 0,
    conversationMembers: 0,
    referrals: 0,
    referralEvents: 0,
    brokerSignoffs: 0,
    reviews: 0,
    invitations: 0,
    brokers: 0,
    pushSubscriptions: 0,
    outreach: 0,
    suppressions: 0,
  };
  const insertAll = async <T>(name: DemoTabKey, records: readonly T[], insert: (record: T) => Promise<unknown>) => {
    if (records.length > 0) options.progress?.(`Writing ${records.length} rows to the ${store[name].tab} tab...`);
    const { stored, failure } = await insertInGroups(records, insert, options.beforeWrite);
    added[name] += stored.length;
    if (failure) throw failure.error;
  };
  await insertAll("agents", missing.agents, (agent) => store.agents.insert({ ...agent, passwordHash }));
  await insertAll("requests", missing.requests, (request) => store.requests.insert(request));
  await insertAll("responses", missing.responses, (response) => store.responses.insert(response));
  await insertAll("messages", missing.messages, (message) => store.messages.insert(message));
  await insertAll("conversationMembers", missing.conversationMembers, (read) =>
    store.conversationMembers.insert({ id: readRowId(read), ...read, lastNotifiedAt: undefined }),
  );
  // A referral before its timeline: a timeline row never names a referral that is not there.
  await insertAll("referrals", missing.referrals, (referral) => store.referrals.insert(referral));
  await insertAll("referralEvents", missing.referralEvents, (event) => store.referralEvents.insert(event));
  await insertAll("brokerSignoffs", missing.brokerSignoffs, (signoff) => store.brokerSignoffs.insert(signoff));
  await insertAll("reviews", missing.reviews, (review) => store.reviews.insert(review));
  await insertAll("invitations", missing.invitations, (invitation) => store.invitations.insert(invitation));
  await insertAll("brokers", missing.brokers, (broker) => store.brokers.insert(broker));
  await insertAll("pushSubscriptions", missing.pushSubscriptions, (device) => store.pushSubscriptions.insert(device));
  await insertAll("outreach", missing.outreach, (invitation) => store.outreach.insert(invitation));
  await insertAll("suppressions", missing.suppressions, (suppression) => store.suppressions.insert(suppression));

  if (presentAgents.length === 0) {
    // The store was empty, so every agent, the login agent included, got the new password.
    return { status: "seeded", added, loginEmail: network.loginEmail, password: password ?? "" };
  }
  const loginAdded = missing.agents.some((agent) => agent.email === network.loginEmail);
  return { status: "completed", added, loginEmail: network.loginEmail, password: loginAdded ? password : undefined };
}

const PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A fresh demo password from the system's secure random source: `demo-` and three groups of four, about 60 bits. */
export function randomDemoPassword(): string {
  const group = () => Array.from({ length: 4 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join("");
  return `demo-${group()}-${group()}-${group()}`;
}
