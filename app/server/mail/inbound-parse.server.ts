import { createHash } from "node:crypto";
import { unstable_parseMultipartFormData as parseMultipartFormData } from "@remix-run/node";
import PostalMime, { type Address, type Email } from "postal-mime";
import { addressesIn, domainOf, parseHeaderLines } from "~/domain/mail-reply";
import { readBodyWithin } from "../forms.server";

/*
 * SendGrid's Inbound Parse webhook as it posts (docs/operator-guide.md): a multipart form
 * with `to`, `from`, `subject`, `text`, `html`, `headers`, `envelope`, `dkim`, `SPF`,
 * `charsets` and the attachments as files ("parsed" mode), or with the whole message as
 * `email` in place of the parsed fields ("raw" mode, read with postal-mime).
 */

/**
 * The largest post read: replies are a few kilobytes, and attachments, never stored, make up
 * the rest. Over it the post is dropped unread, answered 2xx (docs/decisions/0071).
 */
export const INBOUND_MAX_BYTES = 10 * 1024 * 1024;

/** One mail as the webhook reported it. */
export type InboundMail = {
  /** The From address, lower-cased; "" when it has none. */
  from: string;
  /** Every recipient: To, Cc and the envelope's, lower-cased. */
  recipients: string[];
  text: string;
  html: string;
  /** The mail's own headers, names in lower case. */
  headers: Map<string, string>;
  /** The Message-ID, or a digest of the mail's sender, date and text when it has none: what a resend repeats. */
  messageId: string;
  /** The From domain passed SPF (for the envelope sender, in the From domain) or DKIM, as the webhook reports. */
  authenticated: boolean;
};

export type InboundRead = { ok: true; mail: InboundMail } | { ok: false; reason: "too-large" | "unreadable" };

export async function readInboundMail(request: Request): Promise<InboundRead> {
  const body = await readBodyWithin(request, INBOUND_MAX_BYTES);
  if (body === "too-large") return { ok: false, reason: "too-large" };
  if (body === "unreadable") return { ok: false, reason: "unreadable" };
  const fields = await formFields(body, request.headers.get("Content-Type") ?? "");
  if (!fields) return { ok: false, reason: "unreadable" };
  const mail = fields.has("email") ? await fromRawMode(fields) : fromParsedMode(fields);
  return mail ? { ok: true, mail } : { ok: false, reason: "unreadable" };
}

/**
 * The form's text fields as bytes: SendGrid sends each in the mail's own charset (named in
 * `charsets`), so they are decoded here rather than as UTF-8. Files (the attachments) are
 * drained unread. Null when the body is not a multipart form.
 */
async function formFields(body: Uint8Array<ArrayBuffer>, contentType: string): Promise<Map<string, Buffer> | null> {
  const fields = new Map<string, Buffer>();
  try {
    await parseMultipartFormData(
      new Request("http://inbound.local/", { method: "POST", body, headers: { "Content-Type": contentType } }),
      async (part) => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of part.data) if (part.filename === undefined) chunks.push(chunk);
        if (part.filename === undefined && !fields.has(part.name)) fields.set(part.name, Buffer.concat(chunks));
        return undefined;
      },
    );
  } catch {
    return null;
  }
  return fields.size > 0 ? fields : null;
}

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset?.trim() || "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

function charsetsOf(fields: Map<string, Buffer>): Record<string, string> {
  try {
    const charsets: unknown = JSON.parse(fields.get("charsets")?.toString("utf8") ?? "{}");
    return charsets && typeof charsets === "object" ? (charsets as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function envelopeOf(fields: Map<string, Buffer>): { to: string[]; from: string } {
  try {
    const envelope = JSON.parse(fields.get("envelope")?.toString("utf8") ?? "{}") as { to?: unknown; from?: unknown };
    const to = Array.isArray(envelope.to) ? envelope.to.filter((each): each is string => typeof each === "string") : [];
    return { to: to.map((each) => each.toLowerCase()), from: typeof envelope.from === "string" ? envelope.from.toLowerCase() : "" };
  } catch {
    return { to: [], from: "" };
  }
}

function fromParsedMode(fields: Map<string, Buffer>): InboundMail | null {
  const charsets = charsetsOf(fields);
  const field = (name: string) => {
    const bytes = fields.get(name);
    return bytes ? decoderFor(charsets[name]).decode(bytes) : "";
  };
  const from = addressesIn(field("from"))[0] ?? "";
  if (!fields.has("text") && !fields.has("html")) return null;
  const headers = parseHeaderLines(field("headers"));
  const text = field("text");
  return finish(fields, {
    from,
    recipients: [...addressesIn(field("to")), ...addressesIn(field("cc"))],
    text,
    html: field("html"),
    headers,
    messageId: headers.get("message-id") ?? "",
  });
}

async function fromRawMode(fields: Map<string, Buffer>): Promise<InboundMail | null> {
  let parsed: Email;
  try {
    parsed = await PostalMime.parse(fields.get("email")!);
  } catch {
    return null;
  }
  const mailbox = (address: Address | undefined) => (address && !address.group ? address.address.toLowerCase() : "");
  const headers = new Map<string, string>();
  for (const header of parsed.headers) if (!headers.has(header.key)) headers.set(header.key, header.value);
  return finish(fields, {
    from: mailbox(parsed.from),
    recipients: [...(parsed.to ?? []), ...(parsed.cc ?? [])].map(mailbox).filter(Boolean),
    text: parsed.text ?? "",
    html: parsed.html ?? "",
    headers,
    messageId: parsed.messageId ?? "",
  });
}

type Fields = Omit<InboundMail, "authenticated">;

function finish(fields: Map<string, Buffer>, mail: Fields): InboundMail {
  const envelope = envelopeOf(fields);
  return {
    ...mail,
    recipients: [...mail.recipients, ...envelope.to],
    messageId: mail.messageId.trim() || digestOf(mail),
    authenticated: passesSpf(fields, envelope.from, mail.from) || passesDkim(fields, mail.from),
  };
}

function digestOf(mail: Fields): string {
  const date = mail.headers.get("date") ?? "";
  return `digest:${createHash("sha256").update(`${mail.from}\u0000${date}\u0000${mail.text}\u0000${mail.html}`).digest("hex")}`;
}

/** A domain and its own subdomains are one sender (DMARC's relaxed alignment, without the public suffix list). */
function aligned(a: string, b: string): boolean {
  return a !== "" && b !== "" && (a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`));
}

/** SPF vouches for the envelope sender's domain: it counts for the From address when the two are the same domain. */
function passesSpf(fields: Map<string, Buffer>, envelopeFrom: string, from: string): boolean {
  const spf = fields.get("SPF")?.toString("utf8").trim().toLowerCase();
  return spf === "pass" && envelopeFrom.includes("@") && aligned(domainOf(envelopeFrom), domainOf(from));
}

/** SendGrid's `dkim` field: `{@gmail.com : pass}`, one entry per signature. */
function passesDkim(fields: Map<string, Buffer>, from: string): boolean {
  const dkim = fields.get("dkim")?.toString("utf8") ?? "";
  return [...dkim.matchAll(/@([^\s:,{}]+)\s*:\s*([a-z]+)/gi)].some(
    ([, domain = "", result = ""]) => result.toLowerCase() === "pass" && aligned(domain.toLowerCase(), domainOf(from)),
  );
}
