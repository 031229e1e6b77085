import type { SVGProps } from "react";
import spriteUrl from "./icon-sprite.svg?no-inline";

/**
 * Small icons (24px grid, stroked) drawn from one sprite file, `icon-sprite.svg`: each
 * page names the shape instead of repeating its paths inline (24 KB of a directory page
 * was inline SVG), and the browser fetches the hashed, immutable sprite once. They take
 * the text colour; decorative unless a `title` is given, which becomes the accessible name.
 * Each symbol carries its own viewBox and stroke, so the page's `<svg>` holds only its size.
 */
export type IconProps = Omit<SVGProps<SVGSVGElement>, "children"> & { title?: string };

/** The sprite's symbol ids (one per `<symbol>` in icon-sprite.svg). */
export type IconName =
  | "shield-check"
  | "users"
  | "handshake"
  | "map-pin"
  | "chat"
  | "star"
  | "trending-up"
  | "clock"
  | "bell"
  | "mail"
  | "phone"
  | "key"
  | "check-circle"
  | "check"
  | "arrow-right"
  | "document"
  | "home"
  | "bookmark"
  | "heart"
  | "menu"
  | "close"
  | "chevron-down"
  | "facebook"
  | "linkedin"
  | "instagram";

export function SpriteIcon({ shape, title, className = "h-6 w-6", ...props }: IconProps & { shape: IconName }) {
  return (
    <svg className={className} role={title ? "img" : undefined} aria-hidden={title ? undefined : true} {...props}>
      {title ? <title>{title}</title> : null}
      <use href={`${spriteUrl}#${shape}`} />
    </svg>
  );
}

export const ShieldCheckIcon = (props: IconProps) => <SpriteIcon {...props} shape="shield-check" />;
export const UsersIcon = (props: IconProps) => <SpriteIcon {...props} shape="users" />;
export const HandshakeIcon = (props: IconProps) => <SpriteIcon {...props} shape="handshake" />;
export const MapPinIcon = (props: IconProps) => <SpriteIcon {...props} shape="map-pin" />;
export const ChatIcon = (props: IconProps) => <SpriteIcon {...props} shape="chat" />;
export const StarIcon = (props: IconProps) => <SpriteIcon {...props} shape="star" />;
export const TrendingUpIcon = (props: IconProps) => <SpriteIcon {...props} shape="trending-up" />;
export const ClockIcon = (props: IconProps) => <SpriteIcon {...props} shape="clock" />;
export const BellIcon = (props: IconProps) => <SpriteIcon {...props} shape="bell" />;
export const MailIcon = (props: IconProps) => <SpriteIcon {...props} shape="mail" />;
export const PhoneIcon = (props: IconProps) => <SpriteIcon {...props} shape="phone" />;
export const KeyIcon = (props: IconProps) => <SpriteIcon {...props} shape="key" />;
export const CheckCircleIcon = (props: IconProps) => <SpriteIcon {...props} shape="check-circle" />;
/** Drawn bolder where it stands alone (a finished step, a success screen): the one icon whose stroke width a page sets. */
export const CheckIcon = (props: IconProps) => <SpriteIcon strokeWidth={1.8} {...props} shape="check" />;
export const ArrowRightIcon = (props: IconProps) => <SpriteIcon {...props} shape="arrow-right" />;
export const DocumentIcon = (props: IconProps) => <SpriteIcon {...props} shape="document" />;
export const MenuIcon = (props: IconProps) => <SpriteIcon {...props} shape="menu" />;
export const CloseIcon = (props: IconProps) => <SpriteIcon {...props} shape="close" />;
/** A `<details>` summary's chevron; the summary's `group` turns it (`group-open:rotate-180`) once open. */
export const ChevronDownIcon = (props: IconProps) => <SpriteIcon {...props} shape="chevron-down" />;

/** The product's mark: two map pins joined by a river line, one per market state. */
export function LogoMark({ className = "h-9 w-9" }: { className?: string }) {
  return (
    <svg viewBox="0 0 36 36" className={className} aria-hidden="true" focusable="false">
      <rect width="36" height="36" rx="9" className="fill-brand-700" />
      <path d="M5 24c4-3 7-3 10-1s6 2 9-.5 5-2.5 7-1.5" fill="none" stroke="#fca5a5" strokeWidth="2.4" strokeLinecap="round" />
      <path d="M12 18.5s-4-3.4-4-6.6a4 4 0 018 0c0 3.2-4 6.6-4 6.6z" fill="#fff" />
      <path d="M24 16s-4-3.4-4-6.6a4 4 0 018 0c0 3.2-4 6.6-4 6.6z" fill="#fbbf24" />
    </svg>
  );
}
