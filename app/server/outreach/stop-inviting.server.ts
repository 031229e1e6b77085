import { PRODUCT_NAME } from "~/domain/product";
import { STOP_INVITING_PATH } from "~/domain/stop-invitations";
import type { Config } from "../config.server";
import { publicUrl } from "../accounts/urls.server";
import { sign, verifySignature } from "../auth/signing.server";
import { escapeHtml } from "../mail/html.server";
import type { Mail } from "../mail/mailer.server";

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

/**
 * Whether members may send invitations: in production only with the operator's postal
 * address set, which the law on commercial mail (CAN-SPAM) requires in every invitation.
 * Decided once from the configuration, so it never changes while the server runs; the
 * start-up line says when they are off (docs/decisions/0084).
 */
export function invitationsAvailable(config: Pick<Config, "isProduction" | "postalAddress">): boolean {
  return !config.isProduction || config.postalAddress !== undefined;
}

type StopInvitingOptions = {
  /** `postalAddress` is optional for callers outside production, where mails stay in the outbox. */
  config: Pick<Config, "sessionSecrets" | "appUrl" | "port"> & Partial<Pick<Config, "postalAddress">>;
  /** The invited address. */
  email: string;
  /** Who sent it and why, finishing "You get this mail because ...". */
  reason: string;
  /** For the links' address when APP_URL is not set. */
  request?: Request;
};

/**
 * Adds to an invitation what every invitation carries: why the person got it, a link and
 * RFC 8058 headers that put the address on the suppression list with one click, and the
 * operator's postal address.
 */
export function withStopInviting(mail: Mail, { config, email, reason, request }: StopInvitingOptions): Mail {
  const token = createStopInvitingToken(config.sessionSecrets, email);
  const stopUrl = publicUrl(config, `${STOP_INVITING_PATH}?token=${encodeURIComponent(token)}`, request);
  const sender = config.postalAddress === undefined ? PRODUCT_NAME : `${PRODUCT_NAME}, ${config.postalAddress}`;
  const text = [`You get this mail because ${reason}.`, `Don't invite me again: ${stopUrl}`, sender].join("\n");
  const html =
    `<p style="font-family:system-ui,sans-serif;font-size:13px;line-height:1.5;color:#475569">You get this mail because ${escapeHtml(reason)}.<br>` +
    `<a href="${escapeHtml(stopUrl)}">Don't invite me again</a><br>${escapeHtml(sender)}</p>`;
  return {
    ...mail,
    text: `${mail.text}\n\n--\n${text}`,
    html: `${mail.html}${html}`,
    headers: { ...mail.headers, "List-Unsubscribe": `<${stopUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
