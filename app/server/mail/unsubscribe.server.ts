import { MAIL_KIND_LABELS, NOTIFICATION_SETTINGS_PATH, UNSUBSCRIBE_PATH, isMailKind, type MailKind } from "~/domain/notifications";
import type { Agent } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { sign, verifySignature } from "../auth/signing.server";
import type { Config } from "../config.server";
import { escapeHtml } from "./html.server";
import type { Mail } from "./mailer.server";

/**
 * An unsubscribe link works for 90 days: long enough for an old mail in the inbox, short
 * enough that a forwarded or leaked mail does not hold a lasting switch to someone's mail.
 */
export const UNSUBSCRIBE_LINK_TTL_SECONDS = 90 * 24 * 60 * 60;
const PURPOSE = "unsubscribe";

/**
 * A token naming the member and the kind of mail, with an expiry, signed with the session
 * secrets. Nothing is stored: the signature is the proof the link came from a mail we sent.
 */
export function createUnsubscribeToken(secrets: readonly string[], agent: Pick<Agent, "id">, kind: MailKind, now = Date.now()): string {
  const expiresAt = Math.floor(now / 1000) + UNSUBSCRIBE_LINK_TTL_SECONDS;
  const encodedId = Buffer.from(agent.id, "utf8").toString("base64url");
  return `${encodedId}.${kind}.${expiresAt}.${sign(secrets, PURPOSE, signedData(agent.id, kind, expiresAt))}`;
}

export type UnsubscribeLink =
  | { ok: true; agent: Agent; kind: MailKind }
  /** invalid: altered, made for no member we know, or not ours at all; expired: genuine but too old. */
  | { ok: false; reason: "invalid" | "expired" };

/** The member and kind a token names, when it is genuine and unexpired. */
export function readUnsubscribeToken(
  secrets: readonly string[],
  token: unknown,
  findAgent: (id: string) => Agent | undefined,
  now = Date.now(),
): UnsubscribeLink {
  const invalid = { ok: false, reason: "invalid" } as const;
  if (typeof token !== "string" || token.length > 500) return invalid;
  const [encodedId, kind, expiry, signature, ...rest] = token.split(".");
  if (!encodedId || !kind || !expiry || !signature || rest.length > 0 || !isMailKind(kind) || !/^\d{1,12}$/.test(expiry)) return invalid;
  const agentId = Buffer.from(encodedId, "base64url").toString("utf8");
  const expiresAt = Number(expiry);
  if (!verifySignature(secrets, PURPOSE, signedData(agentId, kind, expiresAt), signature)) return invalid;
  if (Math.floor(now / 1000) >= expiresAt) return { ok: false, reason: "expired" };
  const agent = findAgent(agentId);
  return agent ? { ok: true, agent, kind } : invalid;
}

function signedData(agentId: string, kind: MailKind, expiresAt: number): string {
  return JSON.stringify([agentId, kind, expiresAt]);
}

type FooterOptions = {
  config: Pick<Config, "sessionSecrets" | "appUrl" | "port">;
  recipient: Pick<Agent, "id">;
  kind: MailKind;
  /** Why this member got the mail, finishing "You get this mail because ...". */
  reason: string;
  /** For the links' address when APP_URL is not set. */
  request?: Request;
  now?: Date;
};

/**
 * Adds to a mail a member can turn off what every such mail carries: a footer saying why
 * they got it, with the settings page and a signed link that turns this kind off, and the
 * RFC 8058 headers that let mail programs show their own one-click "Unsubscribe".
 */
export function withUnsubscribe(mail: Mail, { config, recipient, kind, reason, request, now = new Date() }: FooterOptions): Mail {
  const token = createUnsubscribeToken(config.sessionSecrets, recipient, kind, now.getTime());
  const unsubscribeUrl = publicUrl(config, `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`, request);
  const settingsUrl = publicUrl(config, NOTIFICATION_SETTINGS_PATH, request);
  const label = MAIL_KIND_LABELS[kind];
  const text = [
    `You get this mail because ${reason}.`,
    `Choose which mails you get: ${settingsUrl}`,
    `Stop "${label}" mails: ${unsubscribeUrl}`,
  ].join("\n");
  const html =
    `<p style="font-family:system-ui,sans-serif;font-size:13px;line-height:1.5;color:#475569">You get this mail because ${escapeHtml(reason)}.<br>` +
    `<a href="${escapeHtml(settingsUrl)}">Choose which mails you get</a> · <a href="${escapeHtml(unsubscribeUrl)}">Stop &quot;${escapeHtml(label)}&quot; mails</a></p>`;
  return {
    ...mail,
    text: `${mail.text}\n\n--\n${text}`,
    html: `${mail.html}${html}`,
    headers: { ...mail.headers, "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
