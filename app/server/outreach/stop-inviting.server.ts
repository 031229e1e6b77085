import type { Config } from "../config.server";
import { publicUrl } from "../accounts/urls.server";
import { sign, verifySignature } from "../auth/signing.server";
import { escapeHtml } from "../mail/html.server";
import type { Mail } from "../mail/mailer.server";

/** The page that puts an invited address on the suppression list. */
const STOP_INVITING_PATH = "/stop-invitations";
const PURPOSE = "stop-inviting";

/**
 * The token of a "don't invite me again" link: the address, signed with the session secrets.
 * It does not expire: a person may find an old invitation and still be entitled to stop them.
 */
export function createStopInvitingToken(secrets: readonly string[], email: string): string {
  const address = email.trim().toLowerCase();
  return `${Buffer.from(address, "utf8").toString("base64url")}.${sign(secrets, PURPOSE, address)}`;
}

/** The address a genuine token names; undefined for anything altered or not ours. */
export function readStopInvitingToken(secrets: readonly string[], token: unknown): string | undefined {
  if (typeof token !== "string" || token.length > 600) return undefined;
  const [encoded, signature, ...rest] = token.split(".");
  if (!encoded || !signature || rest.length > 0) return undefined;
  const address = Buffer.from(encoded, "base64url").toString("utf8");
  return verifySignature(secrets, PURPOSE, address, signature) ? address : undefined;
}

type StopInvitingOptions = {
  config: Pick<Config, "sessionSecrets" | "appUrl" | "port">;
  /** The invited address. */
  email: string;
  /** Who sent it and why, finishing "You get this mail because ...". */
  reason: string;
  /** For the links' address when APP_URL is not set. */
  request?: Request;
};

/**
 * Adds to an invitation what every invitation carries: why the person got it, and a link and
 * RFC 8058 headers that put the address on the suppression list with one click.
 */
export function withStopInviting(mail: Mail, { config, email, reason, request }: StopInvitingOptions): Mail {
  const token = createStopInvitingToken(config.sessionSecrets, email);
  const stopUrl = publicUrl(config, `${STOP_INVITING_PATH}?token=${encodeURIComponent(token)}`, request);
  const text = [`You get this mail because ${reason}.`, `Don't invite me again: ${stopUrl}`].join("\n");
  const html =
    `<p style="font-family:system-ui,sans-serif;font-size:13px;line-height:1.5;color:#475569">You get this mail because ${escapeHtml(reason)}.<br>` +
    `<a href="${escapeHtml(stopUrl)}">Don't invite me again</a></p>`;
  return {
    ...mail,
    text: `${mail.text}\n\n--\n${text}`,
    html: `${mail.html}${html}`,
    headers: { ...mail.headers, "List-Unsubscribe": `<${stopUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
