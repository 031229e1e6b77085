import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { BellIcon, CheckIcon, ClockIcon, KeyIcon, MailIcon, PhoneIcon, TrendingUpIcon, UsersIcon } from "~/components/icons";
import { RotatingSteps, type Step } from "~/components/rotating-steps";
import { PRODUCT_NAME } from "~/domain/product";

export const meta: MetaFunction = () => [
  { title: `Welcome | ${PRODUCT_NAME}` },
  { name: "description", content: `What happens after you register with ${PRODUCT_NAME}.` },
];

export function loader({ context }: LoaderFunctionArgs) {
  const { supportEmail, supportPhone } = context.services.config;
  return { supportEmail, supportPhone: supportPhone ?? null };
}

const WELCOME_ROTATION_MS = 3_000;

const steps: Step[] = [
  {
    title: "Profile Under Review",
    text: "We're verifying your real-estate license against the Texas and Oklahoma public license databases. This usually takes 24-48 hours.",
    status: "In Progress",
    icon: <ClockIcon className="h-6 w-6" />,
  },
  {
    title: "Approval Notification",
    text: "You'll receive an e-mail as soon as your account is approved.",
    status: "Coming Soon",
    icon: <BellIcon className="h-6 w-6" />,
  },
  {
    title: "Start Networking",
    text: "Log in to browse verified agents, post referral requests and message other members directly.",
    status: "Coming Soon",
    icon: <UsersIcon className="h-6 w-6" />,
  },
  {
    title: "Earn Referral Income",
    text: "Send and receive referrals with trusted agents across Texas and Oklahoma.",
    status: "Coming Soon",
    icon: <TrendingUpIcon className="h-6 w-6" />,
  },
];

export default function Welcome() {
  const { supportEmail, supportPhone } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-5xl px-4 pt-12 sm:px-6 sm:pt-16">
      <header className="mx-auto max-w-2xl text-center">
        <span
          aria-hidden="true"
          className="mx-auto grid h-16 w-16 place-items-center rounded-full bg-green-100 text-green-700 ring-8 ring-green-50"
        >
          <CheckIcon className="h-8 w-8" strokeWidth={2.4} />
        </span>
        <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Welcome to {PRODUCT_NAME}!</h1>
        <p className="mt-4 text-lg text-slate-600">Thank you for registering. Your application is in, and here is what happens next.</p>
      </header>

      <div className="mt-12 grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="next-steps-title">
          <h2 id="next-steps-title" className="text-xl font-bold text-slate-900">
            What happens next
          </h2>
          <div className="mt-5">
            <RotatingSteps steps={steps} intervalMs={WELCOME_ROTATION_MS} label="Your next steps" />
          </div>
        </section>

        <div className="space-y-6">
          <section aria-labelledby="credentials-title" className="card">
            <h2 id="credentials-title" className="flex items-center gap-3 text-lg font-bold text-slate-900">
              <span className="grid h-10 w-10 place-items-center rounded-xl bg-brand-50 text-brand-700">
                <KeyIcon className="h-5 w-5" />
              </span>
              Your login credentials
            </h2>
            <p className="mt-4 leading-relaxed text-slate-600">
              Once your account is approved, log in with the e-mail address and password you chose during registration. We never send
              passwords by e-mail.
            </p>
            <Link to="/member-login" className="btn-primary mt-6 w-full py-3 text-base">
              Go to Member Login
            </Link>
          </section>

          <section aria-labelledby="help-title" className="card">
            <h2 id="help-title" className="text-lg font-bold text-slate-900">
              Need help?
            </h2>
            <p className="mt-2 text-sm text-slate-600">Our support team responds within 24 hours on business days.</p>
            <ul className="mt-4 space-y-3">
              <li>
                <a
                  href={`mailto:${supportEmail}`}
                  className="flex items-center gap-3 rounded-lg border border-slate-200 p-3 text-slate-800 hover:border-brand-600 hover:bg-brand-50"
                >
                  <MailIcon className="h-5 w-5 shrink-0 text-brand-700" />
                  <span className="min-w-0">
                    <span className="block text-xs font-semibold tracking-wide text-slate-500 uppercase">E-mail support</span>
                    <span className="block font-medium break-all">{supportEmail}</span>
                  </span>
                </a>
              </li>
              {supportPhone ? (
                <li>
                  <a
                    href={supportPhone.href}
                    className="flex items-center gap-3 rounded-lg border border-slate-200 p-3 text-slate-800 hover:border-brand-600 hover:bg-brand-50"
                  >
                    <PhoneIcon className="h-5 w-5 shrink-0 text-brand-700" />
                    <span>
                      <span className="block text-xs font-semibold tracking-wide text-slate-500 uppercase">Phone support</span>
                      <span className="block font-medium">{supportPhone.display}</span>
                    </span>
                  </a>
                </li>
              ) : null}
            </ul>
          </section>
        </div>
      </div>
    </div>
  );
}
