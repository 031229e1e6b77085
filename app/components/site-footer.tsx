import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { LogoMark } from "~/components/icons";
import { COPYRIGHT_YEAR, PRODUCT_NAME, PRODUCT_TAGLINE } from "~/domain/product";

const socialNetworks: ReadonlyArray<{ name: string; glyph: ReactNode }> = [
  {
    name: "Facebook",
    glyph: (
      <path
        d="M13.5 21v-7.5H16l.5-3h-3V8.7c0-.9.3-1.5 1.6-1.5h1.5V4.5a20 20 0 00-2.3-.1c-2.3 0-3.8 1.4-3.8 3.9v2.2H8v3h2.5V21z"
        fill="currentColor"
      />
    ),
  },
  {
    name: "LinkedIn",
    glyph: (
      <path
        d="M6.5 8.5a1.75 1.75 0 110-3.5 1.75 1.75 0 010 3.5zM5 10h3v9H5zM10 10h2.9v1.3c.4-.8 1.5-1.5 3-1.5 3 0 3.6 1.9 3.6 4.4V19h-3v-4.2c0-1 0-2.4-1.5-2.4s-1.8 1.1-1.8 2.3V19H10z"
        fill="currentColor"
      />
    ),
  },
  {
    name: "Instagram",
    glyph: (
      <g fill="none" stroke="currentColor" strokeWidth="1.8">
        <rect x="4" y="4" width="16" height="16" rx="4.5" />
        <circle cx="12" cy="12" r="3.6" />
        <circle cx="17" cy="7" r=".6" fill="currentColor" />
      </g>
    ),
  },
];

const footerLinkClass = "rounded text-slate-300 transition-colors hover:text-white";

export function SiteFooter() {
  return (
    <footer className="print:hidden on-dark mt-16 bg-brand-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-14 sm:grid-cols-3 sm:px-6 lg:grid-cols-[1.6fr_1fr_1fr_1fr]">
        <section aria-labelledby="footer-product" className="col-span-2 sm:col-span-3 lg:col-span-1">
          <h2 id="footer-product" className="flex items-center gap-2.5 text-lg font-bold text-white">
            <LogoMark className="h-8 w-8" />
            {PRODUCT_NAME}
          </h2>
          <p className="mt-4 max-w-xs text-sm leading-relaxed">
            {PRODUCT_TAGLINE} Verified agents only, direct referral connections and built-in messaging.
          </p>
          {/* The social accounts do not exist yet, so these are labels rather than links. */}
          <ul className="mt-5 flex gap-3" aria-label="Social media">
            {socialNetworks.map((network) => (
              <li key={network.name}>
                <span
                  title={`${network.name} (coming soon)`}
                  className="grid h-10 w-10 place-items-center rounded-full bg-white/10 text-white"
                >
                  <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
                    {network.glyph}
                  </svg>
                  <span className="sr-only">{network.name} (coming soon)</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
        <nav aria-labelledby="footer-membership">
          <h2 id="footer-membership" className="text-sm font-semibold uppercase tracking-wider text-white">
            Membership
          </h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li>
              <Link to="/register" className={footerLinkClass}>
                Join FREE
              </Link>
            </li>
            <li>
              <Link to="/member-login" className={footerLinkClass}>
                Member Login
              </Link>
            </li>
            <li>
              <Link to="/directory?state=TX" className={footerLinkClass}>
                Texas Agents
              </Link>
            </li>
            <li>
              <Link to="/directory?state=OK" className={footerLinkClass}>
                Oklahoma Agents
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-support">
          <h2 id="footer-support" className="text-sm font-semibold uppercase tracking-wider text-white">
            Support
          </h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li>
              <Link to="/contact" className={footerLinkClass}>
                Contact Support
              </Link>
            </li>
            <li>
              <Link to="/contact" className={footerLinkClass}>
                Agent Help Center
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="text-sm font-semibold uppercase tracking-wider text-white">
            Legal
          </h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li>
              <Link to="/privacy-policy" className={footerLinkClass}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/terms-of-service" className={footerLinkClass}>
                Terms of Service
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-6 text-center text-xs text-slate-400 sm:px-6">
          © {COPYRIGHT_YEAR} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
