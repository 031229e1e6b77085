import { Link } from "@remix-run/react";
import type { mailedLinkSchema } from "~/domain/auth";
import { SubmitButton, TextField, useValidatedForm, ValidatedForm, type FormResult } from "./form";
import type { ReactNode } from "react";
import { KeyIcon, MailIcon } from "./icons";

/** The frame of the sign-in pages (login, forgotten and new password): a key badge, the heading, and a narrow centred column. */
export function AccountFrame({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-10 sm:py-16">
      <header className="text-center">
        <span
          aria-hidden="true"
          className="mx-auto grid h-14 w-14 place-items-center rounded-2xl bg-brand-50 text-brand-700 ring-8 ring-brand-50/50"
        >
          <KeyIcon className="h-7 w-7" />
        </span>
        <h1 className="mt-5 text-3xl font-extrabold tracking-tight text-slate-900">{title}</h1>
        {intro ? <p className="mt-2 text-slate-600">{intro}</p> : null}
      </header>
      {children}
    </div>
  );
}

/** The answer of a form that mails a link: the same whoever asked, so it says nothing about who is known. */
export function CheckYourEmail({ children, actions }: { children: ReactNode; actions: ReactNode }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-10 text-center sm:py-16">
      <span
        aria-hidden="true"
        className="mx-auto grid h-16 w-16 place-items-center rounded-full bg-green-100 text-green-700 ring-8 ring-green-50"
      >
        <MailIcon className="h-8 w-8" />
      </span>
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-slate-900">Check Your Email</h1>
      <div role="status" className="mt-4 space-y-3 text-slate-600">
        {children}
      </div>
      {actions}
    </div>
  );
}

/**
 * The answer of the member forms that mail a link (password reset, one-time login), with the
 * way back to the login page: `request` names what was asked for ("password reset"), and the
 * children say what the link does and for how long.
 */
export function MemberLinkSent({ request, email, children }: { request: string; email: string; children: ReactNode }) {
  return (
    <CheckYourEmail
      actions={
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Link to="/member-login" className="btn-primary py-3">
            Back to Member Login
          </Link>
          <Link to="/" className="btn-outline py-3">
            Back to Home
          </Link>
        </div>
      }
    >
      <p>
        We've received a {request} request for <strong className="break-all text-slate-900">{email}</strong>.
      </p>
      <p>{children}</p>
    </CheckYourEmail>
  );
}

/** The form of the member pages that mail a link: the account's e-mail and one button. */
export function MailedLinkForm({ lastResult, label, button }: { lastResult: FormResult | null; label: string; button: string }) {
  const [form, fields] = useValidatedForm<typeof mailedLinkSchema>(lastResult);
  return (
    <section className="card mt-8" aria-label={label}>
      <ValidatedForm form={form} className="space-y-5">
        <TextField field={fields.email} label="Email Address" type="email" autoComplete="email" placeholder="you@brokerage.com" />
        <SubmitButton busyLabel="Sending..." className="btn-primary w-full py-3 text-base">
          {button}
        </SubmitButton>
      </ValidatedForm>
    </section>
  );
}
