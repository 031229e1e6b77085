/**
 * `npm run staff -- mail-log EMAIL`: what became of the mails to one address. It reads the
 * notifier's mail log (each mail sent, held back or not sent, and why), the SendClaims rows
 * that name the member, the member's mail settings and blocks, and the development outbox.
 */
import { normaliseEmail } from "~/domain/auth";
import { CLAIM_KEYS, claimKeyFamily } from "~/domain/claim-keys";
import type { Agent } from "~/domain/workbook/tabs";
import type { StoredMail } from "~/server/mail/mailer.server";
import type { MailLogEntry } from "~/server/notifier/mail-log.server";
import type { Store } from "~/server/store/store.server";

export type MailLogSources = {
  /** The notifier's mail log, oldest first. */
  entries(): Promise<MailLogEntry[]>;
  /** The development outbox's mails; none when mail goes through SendGrid. */
  outbox(): Promise<StoredMail[]>;
  /** Where they are read from, for the headings. */
  mailLogFile: string;
  outboxDirectory: string;
};

/** What an outcome means, in the words of a staff member's question "why did they not get it?". */
function outcomeWords(entry: MailLogEntry): string {
  switch (entry.outcome) {
    case "sent":
      return "sent";
    case "pushed":
      return "pushed to their devices; the mail waited to see whether they read it";
    case "read":
      return "held back: they read it after its push";
    case "off":
      return `held back: their setting (${entry.kind || "this"} mail off)`;
    case "throttled":
      return "held back: throttled (a mail of this series went within 10 minutes)";
    case "taken":
      return "held back: claimed by another instance, or sent before";
    case "failed":
      return `not sent: ${entry.error ?? "the provider refused it"}`;
    case "stopped":
      return "not sent: the app stopped before sending it";
  }
}

function memberLines(store: Store, email: string): { agent: Agent | undefined; lines: string[] } {
  const agent = store.agents.by("email", email)[0];
  if (!agent) return { agent, lines: [`${email} is no member's address (staff, a broker, or unknown): member settings do not apply.`] };
  const off = agent.mailOff ?? [];
  const blocked = store.blocks.by("blockerEmail", email).filter((block) => block.status === "active");
  const blockedBy = store.blocks.by("blockedEmail", email).filter((block) => block.status === "active");
  const lines = [
    `${email}: agent ${agent.id}, ${agent.fullName}, ${agent.status}.`,
    off.length > 0 ? `Mail turned off: ${off.join(", ")}.` : "Every kind of mail is on.",
  ];
  if (blocked.length + blockedBy.length > 0)
    lines.push(
      `Blocks (no mail about the other's messages or requests): ${[
        ...blocked.map((block) => `blocked ${block.blockedEmail}`),
        ...blockedBy.map((block) => `blocked by ${block.blockerEmail}`),
      ].join(", ")}.`,
    );
  return { agent, lines };
}

function notifierLines(entries: readonly MailLogEntry[], email: string, file: string): string[] {
  const mine = entries.filter((entry) => normaliseEmail(entry.to) === email).reverse();
  if (mine.length === 0) return [`Mail log (${file}): no mail to ${email}.`];
  return [
    `Mail log (${file}), newest first:`,
    ...mine.map(
      (entry) =>
        `  ${entry.at}  ${outcomeWords(entry)}  "${entry.subject}"  (${entry.about}${entry.key ? `; ${entry.key}` : ""}; ${entry.instance})`,
    ),
  ];
}

function claimLines(store: Store, email: string, agent: Agent | undefined): string[] {
  const names = [email, ...(agent ? [agent.id] : [])];
  const rows = store.sendClaims.all().filter((row) => names.some((name) => row.key.includes(name)));
  if (rows.length === 0) return ["SendClaims: no row names them."];
  return [
    "SendClaims rows naming them (the copy of the site whose row came first sent it):",
    ...rows.map((row) => {
      const family = claimKeyFamily(row.key);
      const what = family ? CLAIM_KEYS[family].records : "a key the site does not make";
      return `  ${row.claimedAt}  ${row.key}  ${row.outcome}  by ${row.instance}  (${what})${row.note ? `: ${row.note}` : ""}`;
    }),
  ];
}

function outboxLines(mails: readonly StoredMail[], email: string, directory: string): string[] {
  const mine = mails.filter((mail) => normaliseEmail(mail.to) === email);
  if (mine.length === 0) return [`Outbox (${directory}): no mail to them.`];
  return [`Outbox (${directory}), newest first:`, ...mine.map((mail) => `  ${mail.sentAt}  "${mail.subject}"  (${mail.id})`)];
}

/** The lines `mail-log` prints for one address. */
export async function describeMailLog(store: Store, address: string, sources: MailLogSources): Promise<string[]> {
  const email = normaliseEmail(address);
  const [entries, outbox] = await Promise.all([sources.entries(), sources.outbox()]);
  const { agent, lines } = memberLines(store, email);
  return [
    ...lines,
    "",
    ...notifierLines(entries, email, sources.mailLogFile),
    "",
    ...claimLines(store, email, agent),
    "",
    ...outboxLines(outbox, email, sources.outboxDirectory),
  ];
}
