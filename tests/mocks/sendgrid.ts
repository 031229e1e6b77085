import { listen, readBody, sendJson, type StandIn } from "./http";

/**
 * A local stand-in for SendGrid's v3 Mail Send API (POST /v3/mail/send), so the
 * real @sendgrid/mail client runs in tests: it checks the bearer key, validates the
 * body the way SendGrid does (answering 400 with SendGrid's error list), accepts with
 * 202 and an empty body, and keeps each accepted mail for the test to read.
 */
type SentMail = {
  from: string;
  to: string[];
  replyTo: string | undefined;
  subject: string;
  text: string | undefined;
  html: string | undefined;
  /** The body's `headers` field: the custom headers of the mail. */
  headers: Record<string, string> | undefined;
  attachments: Attachment[] | undefined;
};

type Attachment = { content?: unknown; filename?: unknown; type?: unknown; disposition?: unknown };

export type FakeSendgrid = StandIn & {
  /** Every mail accepted so far, oldest first. */
  mails: SentMail[];
  /** Makes the next sends fail as SendGrid does when over its rate limit (429) or given a revoked key (401). */
  refuseNext(status: 401 | 429): void;
};

type SendgridError = { message: string; field: string | null; help: string | null };

type Address = { email?: unknown; name?: unknown };
type MailBody = {
  personalizations?: Array<{ to?: Address[]; subject?: unknown }>;
  from?: Address;
  reply_to?: Address;
  subject?: unknown;
  content?: Array<{ type?: unknown; value?: unknown }>;
  headers?: Record<string, string>;
  attachments?: Attachment[];
};

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function errorBody(message: string, field: string | null = null): { errors: SendgridError[] } {
  return { errors: [{ message, field, help: null }] };
}

/** SendGrid's own validation messages for the fields this app sends. */
function validate(body: MailBody): SendgridError[] {
  const errors: SendgridError[] = [];
  const problem = (message: string, field: string) => errors.push({ message, field, help: null });
  if (!Array.isArray(body.personalizations) || body.personalizations.length === 0) {
    problem("The personalizations field is required and must have at least one personalization.", "personalizations");
  } else {
    body.personalizations.forEach((personalization, index) => {
      if (!Array.isArray(personalization.to) || personalization.to.length === 0)
        problem(
          "The to array is required for all personalization objects, and must have at least one email object with a valid email address.",
          `personalizations.${index}.to`,
        );
      personalization.to?.forEach((to, toIndex) => {
        if (typeof to.email !== "string" || !ADDRESS.test(to.email))
          problem("Does not contain a valid address.", `personalizations.${index}.to.${toIndex}.email`);
      });
    });
  }
  if (typeof body.from?.email !== "string" || !ADDRESS.test(body.from.email))
    problem("The from email does not contain a valid address.", "from.email");
  if (body.reply_to !== undefined && (typeof body.reply_to.email !== "string" || !ADDRESS.test(body.reply_to.email)))
    problem("The reply_to email does not contain a valid address.", "reply_to.email");
  const subjects = [body.subject, ...(body.personalizations ?? []).map((p) => p.subject)];
  if (!subjects.some((subject) => typeof subject === "string" && subject !== ""))
    problem(
      "The subject is required. You can get around this requirement if you use a template with a subject defined or if every personalization has a subject defined.",
      "subject",
    );
  if (!Array.isArray(body.content) || body.content.length === 0) {
    problem(
      "Unless a valid template_id is provided, the content parameter is required. There must be at least one defined content block.",
      "content",
    );
  } else {
    body.content.forEach((block, index) => {
      if (typeof block.value !== "string" || block.value === "")
        problem("The content value must be a string at least one character in length.", `content.${index}.value`);
      if (typeof block.type !== "string" || block.type === "")
        problem("The content type must be a string at least one character in length.", `content.${index}.type`);
    });
    // SendGrid insists text/plain comes first when both are given.
    if (body.content.length > 1 && body.content[0]?.type !== "text/plain")
      problem("If present, text/plain must be first, followed by text/html, followed by any other content.", "content.0.type");
  }
  (body.attachments ?? []).forEach((attachment, index) => {
    if (typeof attachment.content !== "string" || attachment.content === "")
      problem("The attachment content is required.", `attachments.${index}.content`);
    if (typeof attachment.filename !== "string" || attachment.filename === "")
      problem("The attachment filename is required.", `attachments.${index}.filename`);
  });
  return errors;
}

function contentOf(body: MailBody, type: string): string | undefined {
  const value = body.content?.find((block) => block.type === type)?.value;
  return typeof value === "string" ? value : undefined;
}

export async function startFakeSendgrid(apiKey: string): Promise<FakeSendgrid> {
  const mails: SentMail[] = [];
  const refusals: Array<401 | 429> = [];
  const standIn = await listen(async (request, response) => {
    const raw = await readBody(request);
    if (request.method !== "POST" || request.url !== "/v3/mail/send") return sendJson(response, 404, errorBody("Not found"));
    const refusal = refusals.shift();
    if (request.headers.authorization !== `Bearer ${apiKey}` || refusal === 401) {
      return sendJson(response, 401, errorBody("The provided authorization grant is invalid, expired, or revoked"));
    }
    if (refusal === 429) return sendJson(response, 429, errorBody("too many requests"));
    let body: MailBody;
    try {
      body = JSON.parse(raw.toString("utf8")) as MailBody;
    } catch {
      return sendJson(response, 400, errorBody("Bad Request"));
    }
    const errors = validate(body);
    if (errors.length > 0) return sendJson(response, 400, { errors });
    mails.push({
      from: String(body.from?.email),
      to: (body.personalizations ?? []).flatMap((p) => (p.to ?? []).map((to) => String(to.email))),
      replyTo: typeof body.reply_to?.email === "string" ? body.reply_to.email : undefined,
      subject: String(body.personalizations?.find((p) => typeof p.subject === "string")?.subject ?? body.subject),
      text: contentOf(body, "text/plain"),
      html: contentOf(body, "text/html"),
      headers: body.headers,
      attachments: body.attachments,
    });
    response.writeHead(202, { "X-Message-Id": `fake-${mails.length}` });
    response.end();
  });
  return { ...standIn, mails, refuseNext: (status) => refusals.push(status) };
}
