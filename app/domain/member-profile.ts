/** How the dashboard's "Your Profile" card shows a member, with its fallbacks (docs/product.md#profiles-and-directories). */
import { isStoredPhotoUrl } from "./stored-photo";

const LOCATION_NOT_SET = "Location not set";
const BROKERAGE_NOT_SPECIFIED = "Not specified";
/** The profile shows this many specialties before "+N more". */
const PROFILE_SPECIALTIES_SHOWN = 3;

export function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? "";
}

/** Up to two letters: first and last name's initials ("Dana Maria Reyes" → "DR"). */
export function initials(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const letters = [words[0], words.length > 1 ? words.at(-1) : undefined].map((word) => (word ? Array.from(word)[0] : ""));
  return letters.join("").toUpperCase();
}

export function locationLabel(city: string, state: string): string {
  const parts = [city.trim(), state.trim()].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : LOCATION_NOT_SET;
}

export function brokerageLabel(brokerage: string): string {
  return brokerage.trim() || BROKERAGE_NOT_SPECIFIED;
}

export function specialtiesSummary(specialties: readonly string[], shown = PROFILE_SPECIALTIES_SHOWN): { shown: string[]; more: number } {
  return { shown: specialties.slice(0, shown), more: Math.max(0, specialties.length - shown) };
}

/**
 * The photo's address when the app stored it (an upload on this site or on
 * Cloudinary); any other address in the sheet shows the initials instead, so
 * pages never make browsers fetch a host chosen by whoever wrote the cell.
 */
export function photoSource(photoUrl: string): string | null {
  const value = photoUrl.trim();
  return isStoredPhotoUrl(value) ? value : null;
}
