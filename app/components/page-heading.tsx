import type { ReactNode } from "react";

export function PageHeading({ title, intro }: { title: ReactNode; intro?: ReactNode }) {
  return (
    <header className="max-w-3xl">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-3 text-lg text-slate-600">{intro}</p> : null}
    </header>
  );
}
