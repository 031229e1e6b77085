import { MAIL_KIND_LABELS, NOTIFICATION_SETTINGS_PATH, UNSUBSCRIBE_PATH, type MailKind } from "~/domain/notifications";
import type { Agent } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import type { Config } from "../config.server";
import { escapeHtml } from "../mail/html.server";
import type { Mail } from "../mail/mailer.server";
import { createUnsubscribeToken } from "../mail/unsubscribe.server";

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
