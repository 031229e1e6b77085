import type { ReactNode } from "react";
import { PageHeading } from "~/components/page-heading";

/** The white band at the top of content pages: an eyebrow, the page's h1 and intro, and optional extras. */
export function PageBand({
  eyebrow,
  title,
  intro,
  children,
}: {
  eyebrow: string;
  title: ReactNode;
  intro?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="border-b border-slate-200 bg-white">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
        <p className="mb-3 text-sm font-bold tracking-wider text-brand-700 uppercase">{eyebrow}</p>
        <PageHeading title={title} intro={intro} />
        {children}
      </div>
    </div>
  );
}
