import { ConfigError, optionalText } from "../env-text.server";

/**
 * Replies by mail's part of the validated configuration (docs/decisions/0071, 0072): the
 * domain whose MX points at SendGrid's Inbound Parse, and the password its webhook sends
 * (basic auth). Both or neither; `config.server.ts` reads them with the rest of the environment.
 */
export type InboundConfig = { domain: string; secret: string } | undefined;

export const INBOUND_ENV = {
  INBOUND_DOMAIN: optionalText.refine((value) => value === undefined || /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(value), {
    message: "must be a mail domain, e.g. reply.redriverreferrals.com",
  }),
  INBOUND_SECRET: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9_-]{24,}$/.test(value), {
    message: "must be at least 24 letters, digits, - or _ (a random string, e.g. from `openssl rand -hex 24`)",
  }),
};

/** Undefined when neither is set: mails keep their Reply-To of before and the site says nothing of replying. */
export function inboundConfig({
  INBOUND_DOMAIN: domain,
  INBOUND_SECRET: secret,
}: {
  INBOUND_DOMAIN?: string;
  INBOUND_SECRET?: string;
}): InboundConfig {
  if (domain === undefined && secret === undefined) return undefined;
  if (domain === undefined || secret === undefined)
    throw new ConfigError(
      "Set both INBOUND_DOMAIN (the domain replies are sent to) and INBOUND_SECRET (the password of SendGrid's Inbound Parse webhook), or neither.",
    );
  return { domain: domain.toLowerCase(), secret };
}
