import { useEffect, useState, type ReactNode } from "react";

type StepStatus = "In Progress" | "Coming Soon";
export type Step = { title: string; text: string; status: StepStatus; icon: ReactNode };

/**
 * An ordered list whose highlight moves to the next step every `intervalMs`.
 * The server renders the first step highlighted, which is also what a browser
 * without JavaScript keeps. The rotation pauses while the pointer or focus is
 * in the list, and does not run for people who ask for reduced motion.
 */
export function RotatingSteps({ steps, intervalMs, label }: { steps: Step[]; intervalMs: number; label: string }) {
  const [highlighted, setHighlighted] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused || prefersReducedMotion()) return;
    const timer = window.setInterval(() => setHighlighted((index) => (index + 1) % steps.length), intervalMs);
    return () => window.clearInterval(timer);
  }, [paused, intervalMs, steps.length]);

  return (
    <ol
      aria-label={label}
      className="space-y-4"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {steps.map((step, index) => {
        const active = index === highlighted;
        return (
          <li
            key={step.title}
            data-highlighted={active}
            className={`flex gap-4 rounded-2xl border p-5 transition-all duration-500 motion-reduce:transition-none sm:p-6 ${
              active ? "border-brand-600 bg-white shadow-lg ring-2 shadow-brand-900/10 ring-brand-600/20" : "border-slate-200 bg-white/60"
            }`}
          >
            <span
              className={`grid h-12 w-12 shrink-0 place-items-center rounded-xl transition-colors duration-500 motion-reduce:transition-none ${
                active ? "bg-brand-700 text-white" : "bg-slate-100 text-slate-500"
              }`}
            >
              {step.icon}
            </span>
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <h3 className="font-bold text-slate-900">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <StatusBadge status={step.status} />
              </div>
              <p className="mt-1.5 leading-relaxed text-slate-600">{step.text}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function StatusBadge({ status }: { status: StepStatus }) {
  const inProgress = status === "In Progress";
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${
        inProgress ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-600"
      }`}
    >
      {inProgress ? <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-amber-500" /> : null}
      {status}
    </span>
  );
}

function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
