import { initials } from "~/domain/member-profile";

const SIZES = {
  sm: { box: "h-10 w-10 text-sm", pixels: 40 },
  md: { box: "h-12 w-12 text-base", pixels: 48 },
} as const;

/** The other agent's photo in the conversation list and thread, or their initials when there is none. */
export function MessageAvatar({ fullName, photoUrl, size = "md" }: { fullName: string; photoUrl: string | null; size?: keyof typeof SIZES }) {
  const { box, pixels } = SIZES[size];
  if (photoUrl) {
    return <img src={photoUrl} alt="" width={pixels} height={pixels} loading="lazy" className={`${box} shrink-0 rounded-full object-cover`} />;
  }
  return (
    <span aria-hidden="true" className={`${box} grid shrink-0 place-items-center rounded-full bg-brand-700 font-bold text-white`}>
      {initials(fullName) || "?"}
    </span>
  );
}
