import path from "node:path";
import { readOutbox, type StoredMail } from "../../../app/server/mail/mailer.server";
import { e2eDataDir } from "./env";

export function outboxMails(): Promise<StoredMail[]> {
  return readOutbox(path.join(e2eDataDir, "outbox"));
}

/** Waits for a mail matching the predicate; tests run in parallel, so match on something unique. */
export async function waitForMail(match: (mail: StoredMail) => boolean, timeoutMs = 5_000): Promise<StoredMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await outboxMails()).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error("No matching mail arrived in the outbox");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
