import { Link } from "@remix-run/react";
import { COPYRIGHT_YEAR, PRODUCT_NAME, PRODUCT_TAGLINE } from "~/domain/product";

const socialNetworks = ["Facebook", "LinkedIn", "Instagram"];

export function SiteFooter() {
  return (
    <footer className="mt-16 bg-brand-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <section>
          <h2 className="text-lg font-bold text-white">{PRODUCT_NAME}</h2>
          <p className="mt-3 text-sm leading-relaxed">{PRODUCT_TAGLINE} Verified agents only, direct referral connections and built-in messaging.</p>
          {/* The social accounts do not exist yet, so these are labels rather than links. */}
          <ul className="mt-4 flex gap-3" aria-label="Social media">
            {socialNetworks.map((network) => (
              <li key={network}>
                <span
                  title={`${network} (coming soon)`}
                  className="grid h-9 w-9 place-items-center rounded-full bg-white/10 text-xs font-bold text-white"
                >
                  <span aria-hidden="true">{network.slice(0, 2)}</span>
                  <span className="sr-only">{network} (coming soon)</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
        <nav aria-label="Membership">
          <h2 className="font-semibold text-white">Membership</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li><Link to="/register" className="hover:text-white">Join FREE</Link></li>
            <li><Link to="/member-login" className="hover:text-white">Member Login</Link></li>
            <li><Link to="/directory?state=TX" className="hover:text-white">Texas Agents</Link></li>
            <li><Link to="/directory?state=OK" className="hover:text-white">Oklahoma Agents</Link></li>
          </ul>
        </nav>
        <nav aria-label="Support">
          <h2 className="font-semibold text-white">Support</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li><Link to="/contact" className="hover:text-white">Contact Support</Link></li>
            <li><Link to="/contact" className="hover:text-white">Agent Help Center</Link></li>
          </ul>
        </nav>
        <nav aria-label="Legal">
          <h2 className="font-semibold text-white">Legal</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li><Link to="/privacy-policy" className="hover:text-white">Privacy Policy</Link></li>
            <li><Link to="/terms-of-service" className="hover:text-white">Terms of Service</Link></li>
          </ul>
        </nav>
      </div>
      <p className="border-t border-white/10 py-6 text-center text-xs">
        © {COPYRIGHT_YEAR} {PRODUCT_NAME}. All rights reserved.
      </p>
    </footer>
  );
}
