import type { ReactNode } from "react";
import { resultsCountText } from "~/domain/directory-search";
import { EmptyResults } from "./agent-empty-results";
import { ResultsStatus } from "./filter-form";
import { Pagination } from "./pagination";

type Props<Card extends { key: string }> = {
  /** What the count counts, in the singular: "agent" or "verified agent". */
  noun: string;
  matches: number;
  total: number;
  /** Index of the first card shown, and one past the last. */
  start: number;
  end: number;
  page: number;
  pageCount: number;
  cards: readonly Card[];
  renderCard(card: Card): ReactNode;
  /** The page without filters, for the empty state's Clear link. */
  clearHref: string;
  pagesLabel: string;
};

/** One page of directory results: the count, the cards or the empty state, and the page links. */
export function AgentResults<Card extends { key: string }>({
  noun,
  matches,
  total,
  start,
  end,
  page,
  pageCount,
  cards,
  renderCard,
  clearHref,
  pagesLabel,
}: Props<Card>) {
  return (
    <section aria-labelledby="results-title" className="mt-8">
      <h2 id="results-title" className="sr-only">
        Agents
      </h2>
      <ResultsStatus>{resultsCountText({ start, end, matches, total, pageCount }, noun)}</ResultsStatus>
      {cards.length === 0 ? (
        <EmptyResults clearHref={clearHref} />
      ) : (
        <ul className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {cards.map((card) => (
            <li key={card.key}>{renderCard(card)}</li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} label={pagesLabel} />
    </section>
  );
}
