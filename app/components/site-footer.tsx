import { Link } from "@remix-run/react";
import { LogoMark, SpriteIcon, type IconName } from "~/components/icons";
import { COPYRIGHT_YEAR, PRODUCT_NAME, PRODUCT_TAGLINE } from "~/domain/product";

/** The social accounts do not exist yet, so these are labels rather than links; their glyphs are the sprite's. */
const socialNetworks: ReadonlyArray<{ name: string; shape: IconName }> = [
  { name: "Facebook", shape: "facebook" },
  { name: "LinkedIn", shape: "linkedin" },
  { name: "Instagram", shape: "instagram" },
];

/** The footer's link lists, each a `nav` named by its heading. */
const footerSections: ReadonlyArray<{ id: string; title: string; links: ReadonlyArray<readonly [to: string, label: string]> }> = [
  {
    id: "footer-membership",
    title: "Membership",
    links: [
      ["/register", "Join FREE"],
      ["/member-login", "Member Login"],
      ["/directory?state=TX", "Texas Agents"],
      ["/directory?state=OK", "Oklahoma Agents"],
    ],
  },
  {
    id: "footer-support",
    title: "Support",
    links: [
      ["/contact", "Contact Support"],
      ["/contact", "Agent Help Center"],
    ],
  },
  {
    id: "footer-legal",
    title: "Legal",
    links: [
      ["/privacy-policy", "Privacy Policy"],
      ["/terms-of-service", "Terms of Service"],
    ],
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
          <ul className="mt-5 flex gap-3" aria-label="Social media">
            {socialNetworks.map((network) => (
              <li key={network.name}>
                <span
                  title={`${network.name} (coming soon)`}
                  className="grid h-10 w-10 place-items-center rounded-full bg-white/10 text-white"
                >
                  <SpriteIcon shape={network.shape} className="h-5 w-5" />
                  <span className="sr-only">{network.name} (coming soon)</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
        {footerSections.map((section) => (
          <nav key={section.id} aria-labelledby={section.id}>
            <h2 id={section.id} className="text-sm font-semibold uppercase tracking-wider text-white">
              {section.title}
            </h2>
            <ul className="mt-4 space-y-3 text-sm">
              {section.links.map(([to, label]) => (
                <li key={label}>
                  <Link to={to} className={footerLinkClass}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-6 text-center text-xs text-slate-400 sm:px-6">
          © {COPYRIGHT_YEAR} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
