import { initials } from "~/domain/member-profile";

const SIZES = {
  md: { box: "h-16 w-16 text-xl", pixels: 64 },
  lg: { box: "h-28 w-28 text-3xl", pixels: 112 },
} as const;

/**
 * An agent's photo, or their initials on a coloured disc when there is none.
 * `photoUrl` must already be checked as safe to load (`photoSource`).
 */
export function AgentAvatar({ fullName, photoUrl, size = "md" }: { fullName: string; photoUrl: string | null; size?: keyof typeof SIZES }) {
  const { box, pixels } = SIZES[size];
  if (photoUrl) {
    return (
      <img
        src={photoUrl}
        alt={`Photo of ${fullName}`}
        width={pixels}
        height={pixels}
        loading="lazy"
        className={`${box} shrink-0 rounded-full object-cover ring-4 ring-brand-50`}
      />
    );
  }
  return (
    <span aria-hidden="true" className={`${box} grid shrink-0 place-items-center rounded-full bg-brand-700 font-bold text-white ring-4 ring-brand-50`}>
      {initials(fullName) || "?"}
    </span>
  );
}
