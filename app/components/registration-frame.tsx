import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { CheckIcon } from "./icons";

const STEPS = ["Your Details", "Membership", "Agent Profile"] as const;

/** Where the visitor is in the three-screen registration flow. */
function RegistrationProgress({ current }: { current: 1 | 2 | 3 }) {
  return (
    <ol aria-label="Registration progress" className="flex items-center gap-2 text-xs font-semibold sm:gap-3 sm:text-sm">
      {STEPS.map((label, index) => {
        const number = index + 1;
        const done = number < current;
        const active = number === current;
        return (
          <li key={label} aria-current={active ? "step" : undefined} className="flex items-center gap-2 sm:gap-3">
            <span
              className={`grid h-7 w-7 shrink-0 place-items-center rounded-full ${
                done ? "bg-green-700 text-white" : active ? "bg-brand-700 text-white" : "bg-slate-200 text-slate-600"
              }`}
            >
              {done ? <CheckIcon className="h-4 w-4" strokeWidth={2.6} /> : number}
              {done ? <span className="sr-only">(done)</span> : null}
            </span>
            <span className={active ? "text-slate-900" : "hidden text-slate-500 sm:inline"}>{label}</span>
            {number < STEPS.length ? <span aria-hidden="true" className="h-px w-6 bg-slate-300 sm:w-10" /> : null}
          </li>
        );
      })}
    </ol>
  );
}

/** The frame of the registration screens: progress, heading and a centred column. */
export function RegistrationFrame({
  step,
  title,
  intro,
  top,
  children,
  wide = false,
}: {
  step: 1 | 2 | 3;
  title: ReactNode;
  intro?: ReactNode;
  /** Shown above the progress (the back link, a banner). */
  top?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={`mx-auto px-4 py-8 sm:px-6 sm:py-12 ${wide ? "max-w-5xl" : "max-w-3xl"}`}>
      {top}
      <RegistrationProgress current={step} />
      <header className="mt-6">
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        {intro ? <p className="mt-3 text-lg text-slate-600">{intro}</p> : null}
      </header>
      <div className="mt-8">{children}</div>
    </div>
  );
}

/** The way on beside a refused e-mail: members log in; applicants contact support about their application. */
export function EmailTakenHelp({ help, className = "text-sm" }: { help: "login" | "support" | null; className?: string }) {
  if (help === null) return null;
  return (
    <p className={className}>
      {help === "login" ? (
        <Link to="/member-login" className="font-semibold text-brand-700 underline">
          Go to Member Login
        </Link>
      ) : (
        <Link to="/contact" className="font-semibold text-brand-700 underline">
          Contact Support
        </Link>
      )}
    </p>
  );
}
