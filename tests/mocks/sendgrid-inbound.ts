import { randomUUID } from "node:crypto";

/**
 * Posts built as SendGrid's Inbound Parse webhook builds them: a multipart form whose text
 * fields are the mail's bytes in its own charset (named in `charsets`), whose attachments are
 * file parts `attachment1`, ... with `attachment-info`, and which, in raw mode, carries the
 * whole message as `email` instead of the parsed fields.
 */

type Part = { name: string; value: Buffer | string; filename?: string; type?: string };

export type ParsedMail = {
  from: string;
  to: string;
  subject?: string;
  text?: string;
  html?: string;
  /** The mail's header block; a Message-ID, Date, From and To are made when not given. */
  headers?: string;
  messageId?: string;
  /** The charset each text field is encoded in (`text`, `html`, `subject`...): UTF-8 unless named. */
  charsets?: Record<string, string>;
  /** SendGrid's `SPF` field: pass, fail, softfail, none... */
  spf?: string;
  /** SendGrid's `dkim` field, e.g. `{@gmail.com : pass}`. */
  dkim?: string;
  envelopeFrom?: string;
  attachments?: Array<{ filename: string; type: string; content: Buffer }>;
};

export type InboundPost = { body: Buffer; contentType: string };

/** The multipart body of the given parts, each a form field or a file. */
export function multipart(parts: readonly Part[]): InboundPost {
  const boundary = `xYzZY${randomUUID().replace(/-/g, "")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ""}`;
    const type = part.type ? `\r\nContent-Type: ${part.type}` : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, "latin1"));
    chunks.push(typeof part.value === "string" ? Buffer.from(part.value, "utf8") : part.value);
    chunks.push(Buffer.from("\r\n", "latin1"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, "latin1"));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function encoded(value: string, charset = "UTF-8"): Buffer {
  const label = charset.toLowerCase();
  if (label === "utf-8" || label === "utf8") return Buffer.from(value, "utf8");
  // windows-1252 and iso-8859-1 agree on the letters these tests use (é, ñ, ü...).
  if (label === "windows-1252" || label === "iso-8859-1") return Buffer.from(value, "latin1");
  throw new Error(`No encoder for ${charset} in the test helper`);
}

const authentication = (mail: { spf?: string; dkim?: string; from: string }) => ({
  spf: mail.spf ?? "pass",
  dkim: mail.dkim ?? `{@${mail.from.split("@")[1]} : pass}`,
});

/** SendGrid's default, "parsed" mode. */
export function parsedPost(mail: ParsedMail): InboundPost {
  const charsets = { to: "UTF-8", from: "UTF-8", subject: "UTF-8", text: "UTF-8", html: "UTF-8", ...mail.charsets };
  const messageId = mail.messageId ?? `<${randomUUID()}@mail.example.test>`;
  const headers =
    mail.headers ??
    [
      `Received: by mx.sendgrid.net with SMTP id abc`,
      `Date: Sat, 28 Nov 2026 15:14:00 -0600`,
      `From: ${mail.from}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject ?? "Re: New message"}`,
      `Message-ID: ${messageId}`,
      `MIME-Version: 1.0`,
    ].join("\n");
  const { spf, dkim } = authentication(mail);
  const attachments = mail.attachments ?? [];
  const parts: Part[] = [
    { name: "headers", value: headers },
    { name: "dkim", value: dkim },
    { name: "to", value: mail.to },
    { name: "from", value: mail.from },
    { name: "subject", value: encoded(mail.subject ?? "Re: New message", charsets.subject) },
    { name: "sender_ip", value: "209.85.220.41" },
    { name: "envelope", value: JSON.stringify({ to: [addressOf(mail.to)], from: mail.envelopeFrom ?? addressOf(mail.from) }) },
    { name: "attachments", value: String(attachments.length) },
    { name: "charsets", value: JSON.stringify(charsets) },
    { name: "SPF", value: spf },
    { name: "spam_score", value: "0.1" },
  ];
  if (mail.text !== undefined) parts.push({ name: "text", value: encoded(mail.text, charsets.text) });
  if (mail.html !== undefined) parts.push({ name: "html", value: encoded(mail.html, charsets.html) });
  if (attachments.length > 0) {
    const info = Object.fromEntries(attachments.map((file, i) => [`attachment${i + 1}`, { filename: file.filename, type: file.type }]));
    parts.push({ name: "attachment-info", value: JSON.stringify(info) });
    attachments.forEach((file, i) =>
      parts.push({ name: `attachment${i + 1}`, value: file.content, filename: file.filename, type: file.type }),
    );
  }
  return multipart(parts);
}

/** SendGrid's "raw" mode: the whole message, as received, in `email`. */
export function rawPost(mime: string, envelope: { from: string; to: string; spf?: string; dkim?: string }): InboundPost {
  const { spf, dkim } = authentication(envelope);
  return multipart([
    { name: "dkim", value: dkim },
    { name: "email", value: Buffer.from(mime.replace(/\r?\n/g, "\r\n"), "latin1") },
    { name: "to", value: envelope.to },
    { name: "from", value: envelope.from },
    { name: "sender_ip", value: "40.107.22.58" },
    { name: "envelope", value: JSON.stringify({ to: [envelope.to], from: envelope.from }) },
    { name: "charsets", value: JSON.stringify({ to: "UTF-8", from: "UTF-8", subject: "UTF-8" }) },
    { name: "SPF", value: spf },
  ]);
}

function addressOf(header: string): string {
  return /<([^>]+)>/.exec(header)?.[1] ?? header.trim();
}

/** The webhook's Authorization header, as SendGrid sends it for a URL with user and password. */
export function basicAuth(password: string, user = "sendgrid"): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}
