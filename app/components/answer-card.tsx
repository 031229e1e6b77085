import type { ReactNode } from "react";

/** The narrow card a signed link's page answers in: the unsubscribe and stop-invitations pages. */
export function AnswerCard({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-12 sm:px-6 sm:py-16">
      <div className="card space-y-4">{children}</div>
    </div>
  );
}
