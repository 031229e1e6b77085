import { PRODUCT_NAME, PRODUCT_TAGLINE } from "./product";

/** The browser's bar and the installed app's title bar: the header's brand blue (brand-800 in app/tailwind.css). */
export const THEME_COLOR = "#1e3a8a";
/** The splash screen while an installed app opens: the pages' background (slate-50). */
const BACKGROUND_COLOR = "#f8fafc";

export const MANIFEST_PATH = "/manifest.webmanifest";
export const APPLE_TOUCH_ICON = "/icons/apple-touch-icon.png";

/**
 * The web app manifest: what a phone needs to install the site as an app that opens on the
 * member's dashboard in a window of its own. Icons are made from public/favicon.svg by
 * `npm run icons:build`.
 */
export const appManifest = {
  id: "/member-dashboard",
  name: PRODUCT_NAME,
  short_name: "Red River",
  description: PRODUCT_TAGLINE,
  start_url: "/member-dashboard",
  scope: "/",
  display: "standalone",
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
  ],
} as const;
