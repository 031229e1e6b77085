import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import type { ComponentType } from "react";
import { ArrowRightIcon, ChatIcon, CheckIcon, HandshakeIcon, MapPinIcon, ShieldCheckIcon } from "~/components/icons";
import { PageBand } from "~/components/page-band";
import { FOUNDER_CAP, PRODUCT_NAME } from "~/domain/product";
import { NO_SCRIPTS_FOR_VISITORS } from "~/domain/page-scripts";

/**
 * The about page. Its address is built from the product name, so it is registered
 * in vite.config.ts from WHY_PATH rather than by a file name under app/routes.
 * Links and text only: a visitor gets the page without scripts (decision 0085).
 */
export const handle = NO_SCRIPTS_FOR_VISITORS;

export const meta: MetaFunction = () => [
  { title: `Why ${PRODUCT_NAME} | Agent Referral Network for Texas & Oklahoma` },
  {
    name: "description",
    content: `Why licensed agents in Texas and Oklahoma choose ${PRODUCT_NAME}: verified members, direct referral connections and built-in messaging.`,
  },
];

const facts = [
  { value: "TX & OK", label: "markets covered" },
  { value: "24-48h", label: "license verification" },
  { value: String(FOUNDER_CAP), label: "free founder spots" },
];

type Reason = { title: string; text: string; Icon: ComponentType<{ className?: string }> };

const reasons: Reason[] = [
  {
    title: "Every member is verified",
    text: "We check each license against the Texas and Oklahoma public license databases before an account is approved. It usually takes 24-48 hours.",
    Icon: ShieldCheckIcon,
  },
  {
    title: "Agent to agent, nothing in between",
    text: "Referral requests go straight to agents who work the market. You agree the terms with each other; we are not a party to your referral agreement.",
    Icon: HandshakeIcon,
  },
  {
    title: "Two states, one network",
    text: "Clients cross the Red River all the time. One network for Texas and Oklahoma keeps them with agents you know.",
    Icon: MapPinIcon,
  },
  {
    title: "Conversations built in",
    text: "Message other verified agents privately to agree details, without swapping personal numbers first.",
    Icon: ChatIcon,
  },
];

const steps = [
  { title: "Register", text: "Tell us who you are and where you work: name, e-mail, phone, state and city." },
  { title: "Get verified", text: "We confirm your license with the state. Most agents are approved within 24-48 hours." },
  { title: "Connect", text: "Browse the directory of verified agents, post referral requests and answer others' requests." },
  { title: "Refer with confidence", text: "Send clients to agents you have talked to, in any market across both states." },
];

const memberBenefits = [
  "Full network access in Texas and Oklahoma",
  "Unlimited referral requests",
  "Direct messaging with verified agents",
  "Professional profile with verification",
  "Founding-member badge for the first members",
];

type Plan = { name: string; price: string; note: string; text: string; featured?: boolean };

const plans: Plan[] = [
  {
    name: "Founder Access",
    price: "FREE",
    note: "lifetime",
    text: `For the first ${FOUNDER_CAP} agents. No fees and no credit card.`,
    featured: true,
  },
  {
    name: "Founder Membership",
    price: "$10",
    note: "one-time lifetime fee",
    text: "For founding members who join after the free spots are taken.",
  },
  {
    name: "Regular Membership",
    price: "$25",
    note: "one-time lifetime fee",
    text: "For members who join later. Pay once, belong for life.",
  },
];

export default function WhyPage() {
  return (
    <>
      <PageBand
        eyebrow="About us"
        title={`Why ${PRODUCT_NAME}`}
        intro="A private referral network for licensed real-estate agents in Texas and Oklahoma, built so every referral goes to a colleague you can trust."
      >
        <dl className="mt-10 grid max-w-3xl grid-cols-3 gap-4 sm:gap-8">
          {facts.map((fact) => (
            <div key={fact.label} className="flex flex-col border-l-4 border-accent-500 pl-3 sm:pl-4">
              <dt className="text-xs text-slate-600 sm:text-sm">{fact.label}</dt>
              <dd className="-order-1 text-xl font-extrabold text-slate-900 sm:text-3xl">{fact.value}</dd>
            </div>
          ))}
        </dl>
      </PageBand>

      <div className="mx-auto max-w-6xl px-4 pt-12 sm:px-6 sm:pt-16">
        <section aria-labelledby="reasons-title">
          <h2 id="reasons-title" className="text-2xl font-bold tracking-tight text-slate-900">
            What makes it different
          </h2>
          <ul className="mt-6 grid gap-5 sm:grid-cols-2">
            {reasons.map(({ title, text, Icon }) => (
              <li key={title} className="card flex flex-col gap-4 sm:flex-row">
                <span className="grid h-11 w-11 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700">
                  <Icon className="h-6 w-6" />
                </span>
                <div>
                  <h3 className="font-bold text-slate-900">{title}</h3>
                  <p className="mt-1.5 leading-relaxed text-slate-600">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="how-title" className="mt-16">
          <h2 id="how-title" className="text-2xl font-bold tracking-tight text-slate-900">
            How it works
          </h2>
          <ol className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {steps.map((step, index) => (
              <li key={step.title} className="rounded-xl border border-slate-200 bg-white p-5">
                <span aria-hidden="true" className="grid h-9 w-9 place-items-center rounded-full bg-brand-700 font-bold text-white">
                  {index + 1}
                </span>
                <h3 className="mt-4 font-bold text-slate-900">{step.title}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-slate-600">{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="pricing-title" className="mt-16">
          <div className="max-w-3xl">
            <h2 id="pricing-title" className="text-2xl font-bold tracking-tight text-slate-900">
              Membership and pricing
            </h2>
            <p className="mt-3 text-slate-600">
              Founder access is FREE for life for the first {FOUNDER_CAP} agents: no fees and no credit card. Members who join later pay a
              one-time lifetime fee: $10 for a founder membership, $25 for a regular membership. Refunds are handled case by case within 30
              days of payment.
            </p>
          </div>
          <ul className="mt-8 grid gap-5 md:grid-cols-3">
            {plans.map((plan) => (
              <li
                key={plan.name}
                className={`rounded-2xl border p-6 ${plan.featured ? "border-brand-700 bg-brand-800 text-white shadow-xl" : "border-slate-200 bg-white"}`}
              >
                <h3 className={`font-bold ${plan.featured ? "text-amber-300" : "text-slate-900"}`}>{plan.name}</h3>
                <p className="mt-3 flex items-baseline gap-2">
                  <span className="text-4xl font-extrabold tracking-tight">{plan.price}</span>
                  <span className={plan.featured ? "text-blue-100" : "text-slate-500"}>{plan.note}</span>
                </p>
                <p className={`mt-3 text-sm leading-relaxed ${plan.featured ? "text-blue-100" : "text-slate-600"}`}>{plan.text}</p>
              </li>
            ))}
          </ul>
          <div className="mt-8 card">
            <h3 className="font-bold text-slate-900">Every membership includes</h3>
            <ul className="mt-4 grid gap-3 sm:grid-cols-2">
              {memberBenefits.map((benefit) => (
                <li key={benefit} className="flex gap-3 text-slate-700">
                  <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-700" strokeWidth={2.4} />
                  {benefit}
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section
          aria-labelledby="who-title"
          className="mt-16 grid gap-8 rounded-2xl bg-white p-6 ring-1 ring-slate-200 sm:p-10 lg:grid-cols-[2fr_1fr] lg:items-center"
        >
          <div>
            <h2 id="who-title" className="text-2xl font-bold tracking-tight text-slate-900">
              Who can join
            </h2>
            <p className="mt-3 leading-relaxed text-slate-600">
              {PRODUCT_NAME} is for real-estate agents aged 18 or over who hold an active license in Texas or Oklahoma. It is professional
              networking between agents, not a portal for home buyers or sellers.
            </p>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row lg:flex-col">
            <Link to="/register" className="btn-accent py-3 text-base">
              Join FREE
              <ArrowRightIcon className="h-5 w-5" />
            </Link>
            <Link to="/contact" className="btn-outline py-3 text-base">
              Ask a question
            </Link>
          </div>
        </section>
      </div>
    </>
  );
}
