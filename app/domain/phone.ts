import { isValidPhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js";

/**
 * True on the server, false in the browser bundle. Vite fixes it at build time, so the
 * browser bundle leaves out libphonenumber (30 KB gzipped, a third of a page's script
 * budget): the browser only shows numbers (formatPhoneForDisplay), and the server checks
 * that a number is dialable and formats it (decisions 0018, 0024). Scripts run by tsx have
 * no `import.meta.env` and are server code.
 */
const ON_SERVER: boolean = import.meta.env?.SSR ?? true;

/** Numbers without a leading + are read as US numbers. */
const DEFAULT_COUNTRY = "US";

/** The phone rule (docs/product.md#constants): only digits, spaces, hyphens, parentheses, plus and dots, at least 10 characters once spaces are removed. */
const PHONE_CHARACTERS = /^[\d\s\-().+]+$/;
const PHONE_MIN_LENGTH = 10;

export const PHONE_REQUIRED_MESSAGE = "Phone number is required";
export const PHONE_INVALID_MESSAGE = "Please enter a valid phone number";

function meetsSpecRule(input: string): boolean {
  return PHONE_CHARACTERS.test(input) && input.replace(/\s/g, "").length >= PHONE_MIN_LENGTH;
}

/** True when the number passes the character rule and is a real, dialable number for its country. */
export function isValidPhone(input: string): boolean {
  const trimmed = input.trim();
  return meetsSpecRule(trimmed) && (!ON_SERVER || isValidPhoneNumber(trimmed, DEFAULT_COUNTRY));
}

/**
 * The number as it is stored and shown: `(214) 555-0100` for US numbers, the
 * international form (`+44 20 7946 0958`) for others. Input that does not parse
 * is returned trimmed, so callers validate first.
 */
export function formatPhone(input: string): string {
  const trimmed = input.trim();
  if (!ON_SERVER) return trimmed;
  const phone = parsePhoneNumberFromString(trimmed, DEFAULT_COUNTRY);
  if (!phone?.isValid()) return trimmed;
  return phone.country === DEFAULT_COUNTRY ? phone.formatNational() : phone.formatInternational();
}

/**
 * A stored number as profiles show it (docs/product.md#profiles-and-directories): any 10 digits as
 * (xxx) xxx-xxxx, whatever separators were typed; other numbers as `formatPhone` does.
 */
export function formatPhoneForDisplay(input: string): string {
  const digits = input.replace(/\D/g, "");
  if (digits.length === 10 && /^[\d\s\-().]+$/.test(input.trim()))
    return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  return formatPhone(input);
}
