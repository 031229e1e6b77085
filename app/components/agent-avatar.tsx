import { initials } from "~/domain/member-profile";

const SIZES = {
  xs: { box: "h-10 w-10 text-sm", pixels: 40, ring: "" },
  sm: { box: "h-12 w-12 text-base", pixels: 48, ring: "" },
  md: { box: "h-16 w-16 text-xl", pixels: 64, ring: "ring-4 ring-brand-50" },
  lg: { box: "h-28 w-28 text-3xl", pixels: 112, ring: "ring-4 ring-brand-50" },
} as const;

type Props = {
  fullName: string;
  /** Must already be checked as safe to load (`photoSource`). */
  photoUrl: string | null;
  size?: keyof typeof SIZES;
  /** Beside the agent's name (lists, threads) the photo adds nothing for a screen reader. */
  decorative?: boolean;
};

/** An agent's photo, or their initials on a coloured disc when there is none. */
export function AgentAvatar({ fullName, photoUrl, size = "md", decorative = false }: Props) {
  const { box, pixels, ring } = SIZES[size];
  if (photoUrl) {
    return (
      <img
        src={photoUrl}
        alt={decorative ? "" : `Photo of ${fullName}`}
        width={pixels}
        height={pixels}
        loading="lazy"
        className={`${box} shrink-0 rounded-full object-cover ${ring}`}
      />
    );
  }
  return (
    <span aria-hidden="true" className={`${box} grid shrink-0 place-items-center rounded-full bg-brand-700 font-bold text-white ${ring}`}>
      {initials(fullName) || "?"}
    </span>
  );
}
