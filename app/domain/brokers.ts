/**
 * The broker's view: a sponsoring broker asks for a mailed link by license number and
 * e-mail, and sees their agents' referrals in this network with a yearly CSV of the fees
 * paid and received, for the 1099 paperwork. The page's words and the CSV's rows. Free of zod: the page's browser code imports from here
 * (the form's schema is in broker-form.ts).
 */

export const BROKER_STATES = [
  { value: "TX", label: "Texas (TREC)" },
  { value: "OK", label: "Oklahoma (OREC)" },
] as const;
export type BrokerState = (typeof BROKER_STATES)[number]["value"];

/** A mailed link to the view works for a day. */
export const BROKER_LINK_HOURS = 24;

/** The page's one answer, whatever was typed: it never tells whether a license or an address is known. */
export const BROKER_LINK_ANSWER = `If the license and e-mail match TREC's records (or, in Oklahoma, a broker our staff confirmed), a link to your view is on its way to that address. It works for ${BROKER_LINK_HOURS} hours.`;

export const BROKER_LINK_INVALID = "This link is not valid or has expired. Please ask for a new one.";

/** "A.", "J.R.": a client's first name reduced to its initial; initials stay as they are. */
export function clientInitials(clientName: string): string {
  const name = clientName.trim();
  if (name.includes(".") || /^\p{Lu}{1,3}$/u.test(name)) return name;
  const first = [...name][0];
  return first ? `${first.toUpperCase()}.` : "";
}

/** One fee the broker's office paid or received, as the CSV lists it; amounts in cents. */
export type BrokerFee = {
  direction: "Paid" | "Received";
  /** The day the fee was paid (yyyy-mm-dd) and the day its receipt was confirmed ("" while not). */
  paidOn: string;
  receivedOn: string;
  reference: string;
  otherBroker: string;
  otherBrokerLicense: string;
  referringAgent: string;
  receivingAgent: string;
  clientName: string;
  amountCents: number | undefined;
};

const BROKER_FEE_CSV_HEADER = [
  "Paid on",
  "Receipt confirmed on",
  "Paid or received",
  "Agreement",
  "Other broker",
  "Other broker's license",
  "Referring agent",
  "Receiving agent",
  "Client",
  "Amount",
] as const;

/** The CSV's rows, header first, oldest payment first; `toCsv` (csv.ts) keeps every cell from running as a formula. */
export function brokerFeeCsvRows(fees: readonly BrokerFee[]): string[][] {
  const sorted = [...fees].sort((a, b) => a.paidOn.localeCompare(b.paidOn));
  return [
    [...BROKER_FEE_CSV_HEADER],
    ...sorted.map((fee) => [
      fee.paidOn,
      fee.receivedOn,
      fee.direction,
      fee.reference,
      fee.otherBroker,
      fee.otherBrokerLicense,
      fee.referringAgent,
      fee.receivingAgent,
      clientInitials(fee.clientName),
      fee.amountCents === undefined ? "" : (fee.amountCents / 100).toFixed(2),
    ]),
  ];
}
