import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, writeFile, rename } from "node:fs/promises";
import path from "node:path";
import { Client } from "@sendgrid/client";
import { MailService } from "@sendgrid/mail";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** Extra headers, e.g. List-Unsubscribe: SendGrid's `headers` field, kept in the outbox's JSON. */
  headers?: Record<string, string>;
  /** Files sent with the mail, in SendGrid's shape; the outbox keeps them as they are. */
  attachments?: MailAttachment[];
};

type MailAttachment = { content: string; filename: string; type: string; disposition: "attachment" };

export type StoredMail = Mail & { id: string; from: string; sentAt: string };

export interface Mailer {
  readonly driver: "sendgrid" | "outbox";
  send(mail: Mail): Promise<void>;
}

export class MailError extends Error {
  override name = "MailError";
}

/** `apiUrl` replaces https://api.sendgrid.com/ (a stand-in of the API in tests); undefined keeps SendGrid's own. */
export function createSendgridMailer(apiKey: string, from: string, apiUrl?: string): Mailer {
  const api = new Client();
  api.setApiKey(apiKey);
  // After setApiKey, which resets the base URL to SendGrid's region host.
  if (apiUrl !== undefined) api.setDefaultRequest("baseUrl", apiUrl);
  const client = new MailService();
  client.setClient(api);
  return {
    driver: "sendgrid",
    async send(mail) {
      try {
        await client.send({ ...mail, from });
      } catch (error) {
        throw new MailError(`SendGrid refused the mail: ${describeSendgridError(error)}`);
      }
    },
  };
}

function describeSendgridError(error: unknown): string {
  if (error && typeof error === "object" && "code" in error) {
    return `status ${String((error as { code: unknown }).code)}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The local stand-in for SendGrid: one JSON file per mail. Files are written
 * under a temporary name and renamed so a reader never sees half a mail.
 */
export function createOutboxMailer(directory: string, from: string): Mailer & { list(): Promise<StoredMail[]> } {
  return {
    driver: "outbox",
    async send(mail) {
      const sentAt = new Date().toISOString();
      const id = `${sentAt.replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
      const stored: StoredMail = { id, from, ...mail, replyTo: mail.replyTo, sentAt };
      try {
        await mkdir(directory, { recursive: true });
        const target = path.join(directory, `${id}.json`);
        await writeFile(`${target}.tmp`, JSON.stringify(stored, null, 2));
        await rename(`${target}.tmp`, target);
      } catch (error) {
        throw new MailError(`Could not write to the outbox: ${(error as Error).message}`);
      }
    },
    list: () => readOutbox(directory),
  };
}

export async function readOutbox(directory: string): Promise<StoredMail[]> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  const mails = await Promise.all(names.map(async (name) => JSON.parse(await readFile(path.join(directory, name), "utf8")) as StoredMail));
  return mails.sort((a, b) => b.sentAt.localeCompare(a.sentAt) || b.id.localeCompare(a.id));
}
