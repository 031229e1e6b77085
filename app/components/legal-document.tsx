import type { ReactNode } from "react";
import { ChevronDownIcon, DocumentIcon } from "~/components/icons";
import { PageBand } from "~/components/page-band";

export type LegalSection = { id: string; title: string; body: ReactNode };

/**
 * Today's date as the legal pages show it ("November 21, 2026"). The markets are
 * Texas and Oklahoma, so the day turns over on Central time, not the server's zone.
 */
export function legalEffectiveDate(now: Date): string {
  return new Intl.DateTimeFormat("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "America/Chicago",
  }).format(now);
}

type Props = {
  title: string;
  effectiveDate: string;
  intro: ReactNode;
  sections: LegalSection[];
};

export function LegalDocument({ title, effectiveDate, intro, sections }: Props) {
  return (
    <>
      <PageBand eyebrow="Legal" title={title} intro={intro}>
        <p className="mt-6 inline-flex items-center gap-2 rounded-full bg-slate-50 px-3.5 py-1.5 text-sm text-slate-700 ring-1 ring-slate-200">
          <DocumentIcon className="h-4 w-4 text-brand-700" />
          Effective date: <strong className="font-semibold text-slate-900">{effectiveDate}</strong>
        </p>
      </PageBand>

      <div className="mx-auto grid max-w-6xl gap-8 px-4 pt-10 sm:px-6 lg:grid-cols-[15rem_1fr] lg:gap-10 lg:pt-12">
        {/* Phones get the contents folded away (a <details>, so without JavaScript too); wide screens keep them in view. */}
        <details className="group rounded-xl border border-slate-200 bg-white lg:hidden">
          <summary className="flex cursor-pointer items-center justify-between px-5 py-4 font-semibold text-slate-900">
            On this page
            <ChevronDownIcon className="h-5 w-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180" />
          </summary>
          <div className="border-t border-slate-200 px-3 py-3">
            <Contents sections={sections} />
          </div>
        </details>
        <div className="hidden self-start rounded-xl border border-slate-200 bg-white p-5 lg:sticky lg:top-24 lg:block">
          <p aria-hidden="true" className="px-2 text-xs font-bold tracking-wider text-slate-500 uppercase">
            On this page
          </p>
          <div className="mt-3">
            <Contents sections={sections} />
          </div>
        </div>

        <article className="prose-legal min-w-0 rounded-2xl bg-white p-5 ring-1 ring-slate-200 sm:p-10">
          {sections.map((section, index) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-24 first:[&>h2]:mt-0">
              <h2 id={`${section.id}-title`}>
                {index + 1}. {section.title}
              </h2>
              {section.body}
            </section>
          ))}
        </article>
      </div>
    </>
  );
}

function Contents({ sections }: { sections: LegalSection[] }) {
  return (
    <nav aria-label="Contents">
      <ol className="grid gap-0.5 text-sm">
        {sections.map((section, index) => (
          <li key={section.id}>
            <a href={`#${section.id}`} className="flex gap-2 rounded-md px-2 py-1.5 text-slate-700 hover:bg-slate-100 hover:text-brand-800">
              <span className="w-5 shrink-0 text-right text-slate-500 tabular-nums">{index + 1}.</span>
              {section.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
