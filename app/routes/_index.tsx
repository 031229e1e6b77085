import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ComponentType } from "react";
import {
  ArrowRightIcon,
  ChatIcon,
  HandshakeIcon,
  MapPinIcon,
  ShieldCheckIcon,
  StarIcon,
  TrendingUpIcon,
  UsersIcon,
} from "~/components/icons";
import { CheckList } from "~/components/check-list";
import { FOUNDER_CAP, PRODUCT_NAME } from "~/domain/product";
import { foundersLeftNow } from "~/server/registration/vip.server";
import { NO_SCRIPTS_FOR_VISITORS } from "~/domain/page-scripts";

/** Links and text only: a visitor gets the page without scripts (decision 0085). */
export const handle = NO_SCRIPTS_FOR_VISITORS;

export const meta: MetaFunction = () => [
  { title: `Agent Referral Network for Texas & Oklahoma | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `${PRODUCT_NAME} connects verified real-estate agents in Texas and Oklahoma for direct referrals. FREE lifetime founder access for the first ${FOUNDER_CAP} agents.`,
  },
];

export type HomeData = {
  /** Founder spots still open, counted from the agent rows in the store. */
  foundersLeft: number;
};

export function loader({ context }: LoaderFunctionArgs): HomeData {
  return { foundersLeft: foundersLeftNow(context.services) };
}

type Card = { title: string; text: string; Icon: ComponentType<{ className?: string }> };

/** The highlight cards; the middle one names the offer open now. */
function highlightsFor(foundersLeft: number): Card[] {
  return [
    {
      title: "Growing Network",
      text: "Licensed agents across Texas and Oklahoma are joining to trade referrals with people they can trust.",
      Icon: TrendingUpIcon,
    },
    foundersLeft > 0
      ? {
          title: "FREE Founder Access",
          text: `Lifetime membership for the first ${FOUNDER_CAP} agents. No fees and no credit card.`,
          Icon: StarIcon,
        }
      : {
          title: "FREE Membership",
          text: `All ${FOUNDER_CAP} founder spots are taken; membership stays free. No fees and no credit card.`,
          Icon: StarIcon,
        },
    {
      title: "TX & OK Markets Covered",
      text: "From Dallas–Fort Worth, Houston and Austin to Oklahoma City and Tulsa.",
      Icon: MapPinIcon,
    },
  ];
}

const features: Card[] = [
  {
    title: "Verified Agents Only",
    text: "Every member's license is checked against the Texas and Oklahoma public license databases before they can log in, usually within 24-48 hours.",
    Icon: ShieldCheckIcon,
  },
  {
    title: "Direct Referral Connections",
    text: "Post a referral request, get answers from agents who work that market and connect with them directly. No middleman.",
    Icon: HandshakeIcon,
  },
  {
    title: "Texas and Oklahoma Network",
    text: "One network for both states, so a client moving across the Red River stays in good hands.",
    Icon: UsersIcon,
  },
  {
    title: "Built-in Referral Messaging",
    text: "Talk details through with other verified agents in private conversations, right where the referral happens.",
    Icon: ChatIcon,
  },
];

const memberBenefits = [
  "Full network access in Texas and Oklahoma",
  "Unlimited referral requests",
  "Direct messaging with verified agents",
  "Professional profile with verification",
];
const founderBenefits = [...memberBenefits, "Founding-member badge"];

export default function Home() {
  const { foundersLeft } = useLoaderData<typeof loader>();
  return (
    <>
      <Hero foundersLeft={foundersLeft} />
      <Highlights foundersLeft={foundersLeft} />
      <Features />
      <CallToAction foundersLeft={foundersLeft} />
    </>
  );
}

function Hero({ foundersLeft }: HomeData) {
  return (
    <section aria-labelledby="hero-title" className="on-dark relative overflow-hidden bg-brand-900 text-white">
      <div aria-hidden="true" className="hero-glow absolute inset-0" />
      <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 pt-14 pb-28 sm:px-6 lg:grid-cols-[1.15fr_1fr] lg:pt-20 lg:pb-36">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-semibold text-amber-200 ring-1 ring-white/20">
            <ShieldCheckIcon className="h-4 w-4" />
            Licensed Texas &amp; Oklahoma agents only
          </p>
          <h1 id="hero-title" className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">
            Agent Referral Network
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-blue-100">
            {PRODUCT_NAME} is where verified real-estate agents in Texas and Oklahoma send and receive referrals, post requests and message
            one another directly.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to="/register" className="btn-accent px-6 py-3.5 text-base shadow-lg shadow-amber-900/20">
              {foundersLeft > 0 ? "Claim Your FREE Founder Access" : "Join FREE Today"}
              <ArrowRightIcon className="h-5 w-5" />
            </Link>
            <Link to="/member-login" className="btn px-6 py-3.5 text-base text-white ring-1 ring-white/40 hover:bg-white/10">
              Member Login
            </Link>
          </div>
          <p className="mt-5 text-sm text-blue-200">No fees. No credit card. License verification in 24-48 hours.</p>
        </div>
        <FounderCard foundersLeft={foundersLeft} />
      </div>
    </section>
  );
}

/** The founder offer while spots are left; once they are gone, says it is closed and what new agents get. */
function FounderCard({ foundersLeft }: HomeData) {
  const open = foundersLeft > 0;
  return (
    <section aria-labelledby="founder-title" className="rounded-2xl bg-white p-6 text-slate-900 shadow-2xl ring-1 ring-slate-900/5 sm:p-8">
      <div className="flex items-center justify-between gap-3">
        <h2 id="founder-title" className="text-xl font-bold">
          Founder Access
        </h2>
        <span
          className={`rounded-full px-3 py-1 text-xs font-bold tracking-wide uppercase ${open ? "bg-amber-100 text-amber-900" : "bg-slate-200 text-slate-800"}`}
        >
          {open ? "Limited" : "Closed"}
        </span>
      </div>
      <p className="mt-2 text-slate-600">
        {open
          ? `FREE lifetime membership for the first ${FOUNDER_CAP} agents who join.`
          : `The founder offer is closed: all ${FOUNDER_CAP} founder spots are taken. New agents join as members, still FREE.`}
      </p>
      <SpotsLeft foundersLeft={foundersLeft} />
      <CheckList
        items={open ? founderBenefits : memberBenefits}
        label={open ? "Founder benefits" : "Member benefits"}
        className="mt-6 space-y-3"
      />
    </section>
  );
}

function SpotsLeft({ foundersLeft }: { foundersLeft: number }) {
  const claimedPercent = Math.round(((FOUNDER_CAP - foundersLeft) / FOUNDER_CAP) * 100);
  return (
    <div className="mt-6 rounded-xl bg-brand-50 p-4" data-testid="founder-spots">
      <p className="flex items-baseline gap-2">
        <span className="text-4xl font-extrabold text-brand-800">{foundersLeft}</span>{" "}
        <span className="font-semibold text-slate-700">of {FOUNDER_CAP} founder spots left</span>
      </p>
      <div aria-hidden="true" className="mt-3 h-2 overflow-hidden rounded-full bg-brand-100">
        <div className="h-full rounded-full bg-accent-500" style={{ width: `${claimedPercent}%` }} />
      </div>
    </div>
  );
}

function Highlights({ foundersLeft }: HomeData) {
  return (
    <section aria-labelledby="highlights-title" className="relative mx-auto -mt-16 max-w-6xl px-4 sm:px-6 lg:-mt-20">
      <h2 id="highlights-title" className="sr-only">
        Highlights
      </h2>
      <ul className="grid gap-4 sm:grid-cols-3">
        {highlightsFor(foundersLeft).map(({ title, text, Icon }) => (
          <li key={title} className="card flex gap-4 shadow-lg sm:flex-col">
            <span className="grid h-12 w-12 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700">
              <Icon className="h-6 w-6" />
            </span>
            <div>
              <h3 className="font-bold text-slate-900">{title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-slate-600">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Features() {
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 pt-20 sm:px-6 lg:pt-28">
      <div className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-bold tracking-wider text-brand-700 uppercase">Why agents join</p>
        <h2 id="features-title" className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
          Built for agent-to-agent referrals
        </h2>
        <p className="mt-4 text-lg text-slate-600">
          A professional network, not a consumer portal: every member is a licensed agent you can call a colleague.
        </p>
      </div>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2">
        {features.map(({ title, text, Icon }) => (
          <li key={title} className="card flex flex-col gap-4 sm:flex-row sm:gap-5 sm:p-7">
            <span className="grid h-12 w-12 shrink-0 place-items-center rounded-xl bg-brand-700 text-white shadow-md shadow-brand-700/30">
              <Icon className="h-6 w-6" />
            </span>
            <div>
              <h3 className="text-lg font-bold text-slate-900">{title}</h3>
              <p className="mt-2 leading-relaxed text-slate-600">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CallToAction({ foundersLeft }: HomeData) {
  return (
    <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 pt-20 sm:px-6">
      <div className="on-dark relative overflow-hidden rounded-3xl bg-brand-800 px-6 py-12 text-center text-white shadow-xl sm:px-12 sm:py-16">
        <div aria-hidden="true" className="hero-glow absolute inset-0" />
        <div className="relative">
          <h2 id="cta-title" className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
            Grow your referral business across Texas and Oklahoma
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-blue-100">
            {foundersLeft > 0
              ? `Founder access is free for life for the first ${FOUNDER_CAP} agents. Registration takes a few minutes.`
              : "Membership is free: no fees and no credit card. Registration takes a few minutes."}
          </p>
          <Link to="/register" className="btn-accent mt-8 px-7 py-3.5 text-base">
            Join FREE Today
            <ArrowRightIcon className="h-5 w-5" />
          </Link>
        </div>
      </div>
    </section>
  );
}
