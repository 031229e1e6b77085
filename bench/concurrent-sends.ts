/**
 * Several production instances on one database and one staff file (SQLite, in their shared
 * DATA_DIR, so one outbox too): members send messages through all of them at once, as the
 * message form posts them, then the database and the outbox are checked. Every acknowledged
 * message must be stored once, and none twice; every member is mailed about a conversation at
 * most once per notification interval, and no send-once key is claimed twice.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { conversationIdFor } from "../app/domain/conversation";
import { NOTIFICATION_INTERVAL_MS } from "../app/domain/messages";
import { PRODUCT_NAME } from "../app/domain/product";
import type { Agent } from "../app/domain/workbook/tabs";
import { readOutbox, type StoredMail } from "../app/server/mail/mailer.server";
import { logIn, postForm, productionEnv, startBuiltServer, type BuiltServer } from "../scripts/lib/built-server";

export type SendPlan = {
  dataDir: string;
  databaseUrl: string;
  instances: number;
  /** The members who send, each to the next three of them in turn; all are logged in with `password`. */
  senders: readonly Agent[];
  perSender: number;
  password: string;
  log: (line: string) => void;
};

export type SendFigures = {
  instances: number;
  seconds: number;
  sent: number;
  acknowledged: number;
  /** Answered otherwise than with the redirect to the conversation (a refusal, an error, no answer). */
  notAcknowledged: number;
  /** Acknowledged messages not in the database: must be 0. */
  lost: number;
  /** Messages of the run stored more than once (the same text in two rows): must be 0. */
  duplicates: number;
  /** Members and conversations the run's messages went to. */
  notifiedPairs: number;
  mails: number;
  /** Mails to one member about one conversation less than the notification interval apart: must be 0. */
  mailsWithinInterval: number;
  /** Members and conversations that got no mail (a failed send, or mails turned off). */
  pairsWithoutMail: number;
  /** Send-once keys with two claims: must be 0. */
  keysClaimedTwice: number;
  messageClaims: number;
  /** Every instance stopped with code 0 on SIGTERM. */
  cleanStops: boolean;
};

const TEXT_PREFIX = "Bench send";
const MAIL_SUBJECT = new RegExp(`^New message from .+ on ${PRODUCT_NAME}$`);
const SETTLE_MS = 3_000;
const SETTLE_LIMIT_MS = 120_000;

type Sent = { text: string; conversationId: string; recipient: string; acknowledged: boolean };

/** Waits until the outbox has stopped growing: the instances' mail queues are empty. */
async function settleOutbox(directory: string): Promise<void> {
  const count = () =>
    readdir(directory).then(
      (names) => names.filter((name) => name.endsWith(".json")).length,
      () => 0,
    );
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  let before = await count();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const now = await count();
    if (now === before) return;
    before = now;
  }
}

/** The conversation a message mail is about: its link's `conversation` parameter. */
function conversationOf(mail: StoredMail): string | undefined {
  const match = /[?&]conversation=([^\s&"<]+)/.exec(mail.text);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

function mailsTooClose(mails: readonly StoredMail[]): number {
  const byPair = new Map<string, number[]>();
  for (const mail of mails) {
    const pair = `${mail.to} ${conversationOf(mail)}`;
    byPair.set(pair, [...(byPair.get(pair) ?? []), Date.parse(mail.sentAt)]);
  }
  let tooClose = 0;
  for (const group of byPair.values()) {
    const times = group.sort((a, b) => a - b);
    tooClose += times.filter((time, i) => i > 0 && time - times[i - 1]! < NOTIFICATION_INTERVAL_MS).length;
  }
  return tooClose;
}

async function sendAll(servers: readonly BuiltServer[], plan: SendPlan): Promise<Sent[]> {
  const { senders, perSender, password } = plan;
  const cookies = await Promise.all(senders.map((sender, i) => logIn(servers[i % servers.length]!.baseUrl, sender.email, password)));
  const sent: Sent[] = [];
  await Promise.all(
    senders.map(async (sender, i) => {
      for (let j = 0; j < perSender; j += 1) {
        const recipient = senders[(i + 1 + (j % 3)) % senders.length]!;
        const server = servers[(i + j) % servers.length]!;
        const text = `${TEXT_PREFIX} ${i}.${j} from ${sender.id} to ${recipient.id}`;
        const form = new URLSearchParams({ intent: "send", text });
        const acknowledged = await postForm(server.baseUrl, `/messages?to=${encodeURIComponent(recipient.id)}`, cookies[i]!, form).then(
          (response) =>
            [302, 303].includes(response.status) && (response.headers.get("location") ?? "").startsWith("/messages?conversation="),
          () => false,
        );
        sent.push({ text, conversationId: conversationIdFor(sender.id, recipient.id), recipient: recipient.email, acknowledged });
      }
    }),
  );
  return sent;
}

async function storedCounts(pool: pg.Pool): Promise<Map<string, number>> {
  const result = await pool.query<{ text: string; count: string }>(
    `SELECT "text", count(*) AS count FROM "Messages" WHERE "text" LIKE $1 GROUP BY "text"`,
    [`${TEXT_PREFIX} %`],
  );
  return new Map(result.rows.map((row) => [row.text, Number(row.count)]));
}

async function claimFigures(pool: pg.Pool): Promise<{ keysClaimedTwice: number; messageClaims: number }> {
  const result = await pool.query<{ twice: string; message: string }>(
    `SELECT count(*) FILTER (WHERE claims > 1) AS twice, count(*) FILTER (WHERE "key" LIKE 'message:%') AS message
     FROM (SELECT "key", count(*) AS claims FROM "SendClaims" WHERE "outcome" = 'claimed' GROUP BY "key") AS keys`,
  );
  return { keysClaimedTwice: Number(result.rows[0]!.twice), messageClaims: Number(result.rows[0]!.message) };
}

export async function sendThroughInstances(pool: pg.Pool, plan: SendPlan): Promise<SendFigures> {
  // One secret for all, so a member's session cookie is good on every instance.
  const env = {
    ...productionEnv(plan.dataDir),
    DATABASE_URL: plan.databaseUrl,
    // The run measures storing and mailing, not the hourly limit per member.
    MESSAGES_PER_MEMBER_PER_HOUR: String(plan.perSender * 10),
  };
  const servers: BuiltServer[] = [];
  for (let i = 0; i < plan.instances; i += 1) servers.push(await startBuiltServer([process.execPath, "scripts/start.mjs"], env));
  const outbox = path.join(plan.dataDir, "outbox");
  const started = performance.now();
  let sent: Sent[];
  try {
    plan.log(`  ${plan.senders.length} members send ${plan.perSender} messages each through ${servers.length} instances...`);
    sent = await sendAll(servers, plan);
    await settleOutbox(outbox);
  } finally {
    for (const server of servers) server.child.kill("SIGTERM");
  }
  const exits = await Promise.all(servers.map((server) => server.exited));
  const seconds = (performance.now() - started) / 1000;

  const stored = await storedCounts(pool);
  const acknowledged = sent.filter((message) => message.acknowledged);
  const pairs = new Set(acknowledged.map((message) => `${message.recipient} ${message.conversationId}`));
  const mails = (await readOutbox(outbox)).filter(
    (mail) => MAIL_SUBJECT.test(mail.subject) && pairs.has(`${mail.to} ${conversationOf(mail)}`),
  );
  const mailed = new Set(mails.map((mail) => `${mail.to} ${conversationOf(mail)}`));
  return {
    instances: servers.length,
    seconds,
    sent: sent.length,
    acknowledged: acknowledged.length,
    notAcknowledged: sent.length - acknowledged.length,
    lost: acknowledged.filter((message) => !stored.has(message.text)).length,
    duplicates: [...stored.values()].reduce((sum, count) => sum + count - 1, 0),
    notifiedPairs: pairs.size,
    mails: mails.length,
    mailsWithinInterval: mailsTooClose(mails),
    pairsWithoutMail: [...pairs].filter((pair) => !mailed.has(pair)).length,
    ...(await claimFigures(pool)),
    cleanStops: exits.every((exit) => exit.code === 0),
  };
}
