import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { Cookie } from "@remix-run/node";
import type { BrokerLinkInput } from "~/domain/broker-form";
import { BROKER_LINK_HOURS, type BrokerState } from "~/domain/brokers";
import { isBrokerLicense, licenseKey } from "~/domain/license-check";
import { publicUrl } from "../accounts/urls.server";
import { createLinkToken, linkTokenCookie, readLinkToken } from "../auth/link-token.server";
import type { Config } from "../config.server";
import { brokerLinkMail, brokerRequestsPausedMail } from "../mail/broker-mail.server";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";
import { PENDING_BROKERS_KEY } from "../write-limits.server";

type BrokerServices = Pick<Services, "config" | "store" | "notifier" | "limits"> & { licenses: Pick<Services["licenses"], "table"> };

/** A broker whose license and e-mail were checked: TREC's data for Texas, a row staff confirmed for Oklahoma. */
/** `name` is TREC's name for the license, or the name staff gave the Brokers row ("" when they gave none). */
export type VerifiedBroker = { state: BrokerState; licenseNumber: string; email: string; name: string };

const PURPOSE = "broker-view";
const TTL_SECONDS = BROKER_LINK_HOURS * 60 * 60;
const HOUR_MS = 60 * 60 * 1000;

/**
 * The broker when the typed license and e-mail prove who they are: a Texas broker license
 * (individual, LLC, corporation or partnership) whose e-mail on file at TREC is this one,
 * or an Oklahoma license staff confirmed in the Brokers tab with this e-mail. Null otherwise.
 */
function verifiedBroker(services: Pick<BrokerServices, "store" | "licenses">, input: BrokerLinkInput): VerifiedBroker | null {
  const key = licenseKey(input.licenseNumber);
  if (key === "") return null;
  if (input.state === "TX") {
    const license = services.licenses.table.lookup(input.licenseNumber);
    if (!license || !isBrokerLicense(license) || license.email === "" || license.email !== input.email) return null;
    return { state: "TX", licenseNumber: license.licenseNumber, email: input.email, name: license.fullName };
  }
  const confirmed = services.store.brokers
    .by("licenseNumber", key)
    .find((row) => row.state === "OK" && row.email === input.email && row.status === "confirmed");
  return confirmed ? { state: "OK", licenseNumber: confirmed.licenseNumber, email: input.email, name: confirmed.name } : null;
}

/**
 * An Oklahoma broker's first request: a pending row for staff to confirm against OREC's
 * search. One row per license and e-mail, and while one waits for staff no other for that
 * license, whatever e-mail is typed; staff's answer in it is kept. New pending rows are
 * limited per hour for the whole site (docs/decisions/0061): anyone can type a license
 * and an address, and each row is a check staff make by hand.
 */
async function askStaffToConfirm(
  services: Pick<BrokerServices, "store" | "limits" | "notifier" | "config">,
  input: BrokerLinkInput,
  now: Date,
): Promise<void> {
  const rows = services.store.brokers.by("licenseNumber", licenseKey(input.licenseNumber)).filter((row) => row.state === "OK");
  if (rows.some((row) => row.email === input.email || row.status === "pending")) return;
  const allowed = services.limits.pendingBrokers.hit(PENDING_BROKERS_KEY);
  if (!allowed.allowed) {
    tellStaffRequestsPaused(services, allowed.retryAfterSeconds, now);
    return;
  }
  await services.store.brokers.insert({
    id: newId(),
    licenseNumber: input.licenseNumber,
    state: "OK",
    name: "",
    email: input.email,
    status: "pending",
    staffNote: undefined,
    createdAt: now.toISOString(),
    updatedAt: undefined,
  });
}

/**
 * Mails staff that the hour's new pending rows are used up: once an hour from this
 * instance, and once per clock hour across instances (the notifier's claim), however many
 * requests are turned away.
 */
function tellStaffRequestsPaused(
  services: Pick<BrokerServices, "notifier" | "config" | "limits">,
  retryAfterSeconds: number,
  now: Date,
): void {
  const { config, limits } = services;
  if (!limits.pendingBrokersPausedMail.hit(PENDING_BROKERS_KEY).allowed) return;
  const hour = Math.floor(now.getTime() / HOUR_MS);
  services.notifier.enqueue(
    {
      mail: brokerRequestsPausedMail(config.supportEmail, config.writeLimits.pendingBrokersPerHour, Math.ceil(retryAfterSeconds / 60)),
      about: "the staff mail that Oklahoma broker requests are paused",
    },
    { now, once: CLAIM_KEYS["broker-requests-paused"].key(String(hour)) },
  );
}

/**
 * Mails the link when the license and e-mail prove a broker; otherwise an Oklahoma
 * request waits for staff. The page answers the same either way, before the mail goes.
 */
export async function requestBrokerLink(
  services: BrokerServices,
  input: BrokerLinkInput,
  request: Request,
  now = new Date(),
): Promise<void> {
  const broker = verifiedBroker(services, input);
  if (!broker) {
    if (input.state === "OK") await askStaffToConfirm(services, input, now);
    return;
  }
  const token = createLinkToken(
    services.config.sessionSecrets,
    PURPOSE,
    {
      fields: [broker.state, broker.licenseNumber, broker.email],
      ttlSeconds: TTL_SECONDS,
    },
    now.getTime(),
  );
  const url = publicUrl(services.config, `/broker/view?${new URLSearchParams({ token })}`, request);
  services.notifier.enqueue(
    { mail: brokerLinkMail(broker.email, broker.licenseNumber, url), about: `the broker's view link for license ${broker.licenseNumber}` },
    { now },
  );
}

/**
 * The broker a token stands for: genuine, unexpired, and still proven now (a TREC e-mail
 * changed since, or a confirmation staff withdrew, ends the link).
 */
function brokerForToken(
  services: Pick<BrokerServices, "config" | "store" | "licenses">,
  token: unknown,
  now = Date.now(),
): VerifiedBroker | null {
  const reading = readLinkToken(services.config.sessionSecrets, PURPOSE, token, { fieldCount: 3 }, now);
  if (!reading.ok) return null;
  const [state, licenseNumber = "", email = ""] = reading.fields;
  if (state !== "TX" && state !== "OK") return null;
  return verifiedBroker(services, { state, licenseNumber, email });
}

/** The broker's view link's token, out of the address, sent on the broker's pages only. */
export function brokerLinkCookie(config: Pick<Config, "isProduction">): Cookie {
  return linkTokenCookie(config, { name: "__broker", path: "/broker", maxAgeSeconds: TTL_SECONDS });
}

/** The broker whose link this browser opened, from the cookie; null without a working one. */
export async function brokerForRequest(
  services: Pick<BrokerServices, "config" | "store" | "licenses">,
  request: Request,
): Promise<VerifiedBroker | null> {
  const token: unknown = await brokerLinkCookie(services.config).parse(request.headers.get("Cookie"));
  return brokerForToken(services, token);
}
