import { appendFile, readFile, rename, stat } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.server";

/**
 * The notifier's own record of every mail it was given and what became of it: sent, held back
 * (the member's setting, the throttle, another instance's claim, a push the member read) or
 * not sent (refused by the provider, the app stopped). SendClaims holds only the mails that
 * are claimed, and only their winner; this is what `npm run staff -- mail-log EMAIL` reads
 * to answer "why did this member not get that mail?" (docs/decisions/0074).
 *
 * One JSON line per outcome in DATA_DIR/mail-log.jsonl, appended by each process in turn. It
 * holds addresses and subjects, no bodies; past MAX_BYTES the file moves to mail-log.1.jsonl
 * (the one before that is dropped), so it keeps the last few tens of thousands of mails.
 */
export type MailLogEntry = {
  at: string;
  /** The process's name, as in SendClaims' `instance` column. */
  instance: string;
  to: string;
  subject: string;
  /** What the notifier calls the mail, e.g. "the response mail for request r1". */
  about: string;
  /** The member's kind of mail (`messages`, `digest`, ...); blank for account, broker and staff mail. */
  kind: string;
  outcome: MailLogOutcome;
  /** The claim key or throttle chain the mail went under; blank when it needs none. */
  key: string;
  /** Why a mail was not sent: the provider's refusal or the error. */
  error?: string;
};

/**
 * The notifier's outcomes, and `read`: a mail held back after its push, not sent because the
 * member read the item meanwhile.
 */
export type MailLogOutcome = "sent" | "failed" | "off" | "throttled" | "taken" | "stopped" | "pushed" | "read";

export type MailLog = {
  /** Appends the entry with the time and this process's name; never throws (a write that fails is logged). */
  record(entry: Omit<MailLogEntry, "at" | "instance">): void;
  /** Resolves once every entry recorded so far is written. */
  flush(): Promise<void>;
};

const MAX_BYTES = 8 * 1024 * 1024;

export function mailLogFile(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "mail-log.jsonl");
}

function olderFile(file: string): string {
  return file.replace(/\.jsonl$/, ".1.jsonl");
}

export function createMailLog(file: string, { instance, log = console }: { instance: string; log?: Pick<Console, "error"> }): MailLog {
  let size: number | undefined;
  let writes: Promise<void> = Promise.resolve();

  async function append(line: string): Promise<void> {
    size ??= await stat(file).then(
      (stats) => stats.size,
      () => 0,
    );
    if (size + line.length > MAX_BYTES) {
      await rename(file, olderFile(file)).catch(() => undefined);
      size = 0;
    }
    await appendFile(file, line);
    size += Buffer.byteLength(line);
  }

  return {
    record(entry) {
      const line = `${JSON.stringify({ at: new Date().toISOString(), instance, ...entry })}\n`;
      writes = writes.then(() => append(line)).catch((error: unknown) => log.error(`Mail: could not add to ${file}`, error));
    },
    flush: () => writes,
  };
}

/** Every entry kept, oldest first: the older file's, then the current one's. Lines that do not parse are skipped. */
export async function readMailLog(file: string): Promise<MailLogEntry[]> {
  const texts = await Promise.all([olderFile(file), file].map((name) => readFile(name, "utf8").catch(() => "")));
  return texts.flatMap((text) =>
    text.split("\n").flatMap((line) => {
      if (!line.trim()) return [];
      try {
        return [JSON.parse(line) as MailLogEntry];
      } catch {
        return [];
      }
    }),
  );
}
