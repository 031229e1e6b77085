import { SpriteIcon } from "./icons";

/** Icons only the dashboard uses, from the same sprite as those in icons.tsx (decorative). */
export const HomeIcon = ({ className }: { className?: string }) => <SpriteIcon shape="home" className={className} />;

/** Filled when chosen: the symbol's shape has no fill of its own, so it takes the one set here. */
export const BookmarkIcon = ({ className, filled = false }: { className?: string; filled?: boolean }) => (
  <SpriteIcon shape="bookmark" className={className} fill={filled ? "currentColor" : "none"} />
);

export const HeartIcon = ({ className, filled = false }: { className?: string; filled?: boolean }) => (
  <SpriteIcon shape="heart" className={className} fill={filled ? "currentColor" : "none"} />
);
