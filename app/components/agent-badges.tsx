import { ShieldCheckIcon, StarIcon } from "~/components/icons";
import { membershipTypeLabel } from "~/domain/directory-cards";
import { specialtiesSummary } from "~/domain/member-profile";
import type { MembershipType } from "~/domain/workbook/tabs";

const pill = "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1";

/** Every agent in the directories is a verified, approved member. */
export function VerifiedBadge() {
  return (
    <span className={`${pill} bg-green-50 text-green-800 ring-green-200`}>
      <ShieldCheckIcon className="h-3.5 w-3.5" />
      Verified
    </span>
  );
}

/** "Founding Member" for founders, "VIP" for VIP members, nothing for other members. */
export function MembershipBadge({ membershipType }: { membershipType: MembershipType }) {
  if (membershipType === "founder") {
    return (
      <span className={`${pill} bg-amber-50 text-amber-900 ring-amber-300`}>
        <StarIcon className="h-3.5 w-3.5" />
        Founding Member
      </span>
    );
  }
  if (membershipType === "vip") {
    return (
      <span className={`${pill} bg-violet-50 text-violet-800 ring-violet-200`}>
        <StarIcon className="h-3.5 w-3.5" />
        VIP
      </span>
    );
  }
  return null;
}

/**
 * The member views' membership line (docs/product.md#profiles-and-directories): FOUNDER, VIP or
 * MEMBER. It is the one membership badge there; the Founding Member pill is for the
 * public directory, so no card names a membership twice.
 */
export function MembershipTypeLabel({ membershipType }: { membershipType: MembershipType | "" }) {
  return (
    <span className="shrink-0 rounded-md bg-slate-100 px-2 py-0.5 text-xs font-bold tracking-wide text-slate-700">
      {membershipTypeLabel(membershipType)}
    </span>
  );
}

/** The first specialties as badges and a "+N more" badge for the rest (three are shown: docs/product.md#profiles-and-directories). */
export function SpecialtyBadges({ specialties, label = "Specialties" }: { specialties: readonly string[]; label?: string }) {
  const { shown, more } = specialtiesSummary(specialties);
  if (shown.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-1.5">
      {shown.map((specialty) => (
        <li key={specialty} className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-800">
          {specialty}
        </li>
      ))}
      {more > 0 ? (
        <li
          className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700"
          title={specialties.slice(shown.length).join(", ")}
        >
          +{more} more
        </li>
      ) : null}
    </ul>
  );
}
