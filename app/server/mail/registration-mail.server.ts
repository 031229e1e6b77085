import { OREC_SEARCH_URL } from "~/domain/license-check";
import { MEMBERSHIP_LABELS } from "~/domain/account-messages";
import { PRODUCT_NAME } from "~/domain/product";
import type { Agent } from "~/domain/workbook/tabs";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

/** The public license look-ups staff use to verify a new member (docs/product.md#registration-and-accounts). */
const LICENSE_LOOKUPS = {
  TX: { name: "Texas Real Estate Commission (TREC) license holder search", url: "https://www.trec.texas.gov/apps/license-holder-search/" },
  OK: { name: "Oklahoma Real Estate Commission (OREC) license look-up", url: OREC_SEARCH_URL },
} as const;

const NOT_GIVEN = "Not provided";

/** The new agent's copy: what happens next and where to log in once approved. Never the password. */
export function agentWelcomeMail(agent: Agent, loginUrl: string): Mail {
  const body = renderMailBody(
    `Hi ${agent.fullName}, thank you for registering with ${PRODUCT_NAME}. Your application is in.`,
    [
      [
        "What happens next",
        "We verify your real-estate license against the state's public license database. This usually takes 24-48 hours.",
      ],
      ["Approval", "You will receive an e-mail as soon as your account is approved."],
      ["Then", "Log in with this e-mail address and the password you chose during registration."],
      ["Member login", loginUrl],
      ["Membership", MEMBERSHIP_LABELS[agent.membershipType]],
    ],
    "For your security we never send passwords by e-mail. If you did not register, you can ignore this message.",
  );
  return { to: agent.email, subject: `Welcome to ${PRODUCT_NAME}: your registration is under review`, ...body };
}

/** Staff's notice of a registration to verify: the profile, the license check and look-ups. Never the password. */
export function staffRegistrationMail(agent: Agent, supportEmail: string): Mail {
  const body = renderMailBody(
    agent.status === "approved"
      ? `A new agent registered with ${PRODUCT_NAME} and was approved automatically (clean Texas license check). Type rejected in the status cell to undo it.`
      : `A new agent registered with ${PRODUCT_NAME} and is waiting for license verification.`,
    [
      ["Name", agent.fullName],
      ["Email", agent.email],
      ["Phone", agent.phone],
      ["City", agent.city],
      ["State", agent.state],
      ["License number", agent.licenseNumber],
      ["License state", agent.licenseState],
      ["License expiration", agent.licenseExpiration || NOT_GIVEN],
      ["Brokerage", agent.brokerage],
      ["Broker license number", agent.brokerLicenseNumber || NOT_GIVEN],
      ["Broker email", agent.brokerEmail || NOT_GIVEN],
      ["Broker from", agent.brokerFrom === "trec" ? "TREC's license data" : "typed by the agent"],
      ["Specialties", agent.specialties.join(", ") || NOT_GIVEN],
      ["Bio", agent.bio || NOT_GIVEN],
      ["Photo", agent.photoUrl || NOT_GIVEN],
      ["Membership", MEMBERSHIP_LABELS[agent.membershipType]],
      ["VIP code", agent.vipCode || NOT_GIVEN],
      ["Registered", agent.createdAt],
      ["Agent id", agent.id],
      ["License check", agent.licenseCheck || "Not checked"],
      ["License check details", agent.licenseCheckNote || NOT_GIVEN],
      agent.licenseState === "OK"
        ? [`OREC search (license ${agent.licenseNumber})`, LICENSE_LOOKUPS.OK.url]
        : ["Texas license look-up", LICENSE_LOOKUPS.TX.url],
    ],
    "To approve, type approved in the agent's status cell (or run the staff command); to reject, type rejected and add a statusNote.",
  );
  return {
    to: supportEmail,
    replyTo: agent.email,
    // One line whatever was typed: a line break in a header would end it.
    subject: `New registration to verify: ${agent.fullName} (${agent.licenseState} ${agent.licenseNumber})`.replace(/\s+/g, " "),
    ...body,
  };
}
