import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { SubmitButton } from "~/components/form";
import { CheckList } from "~/components/check-list";
import { ShieldCheckIcon, StarIcon } from "~/components/icons";
import { RegistrationFrame } from "~/components/registration-frame";
import { MARKET_STATE_NAMES } from "~/domain/enums";
import { PRODUCT_NAME } from "~/domain/product";
import { MEMBERSHIP_LABELS } from "~/domain/account-messages";
import type { MembershipType } from "~/domain/workbook/tabs";
import { readDraft } from "~/server/registration/draft.server";
import { membershipForDraft } from "~/server/registration/vip.server";

export const meta: MetaFunction = () => [{ title: `Your Membership | ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const draft = await readDraft(context.services, request);
  if (!draft) throw redirect("/register");
  const membershipType = membershipForDraft(context.services, draft);
  return { draft, membershipType };
}

/** Nothing is charged (the join flow is free): completing "payment" only moves the visitor on. */
export async function action({ request, context }: ActionFunctionArgs) {
  const draft = await readDraft(context.services, request);
  return redirect(draft ? "/registration-success" : "/register");
}

const benefits = [
  "Access to verified agents in Texas and Oklahoma",
  "Post and respond to referral requests",
  "Direct messaging with verified agents",
  "Professional profile with license verification",
  "Lifetime membership",
];

const cardTitles: Record<MembershipType, string> = {
  founder: "FREE Founder Access",
  vip: "FREE VIP Access",
  member: "FREE Member Access",
};

export default function Payment() {
  const { draft, membershipType } = useLoaderData<typeof loader>();
  const summary: Array<[string, string]> = [
    ["Name", draft.fullName],
    ["Email", draft.email],
    ["Location", `${draft.city}, ${MARKET_STATE_NAMES[draft.state]} (${draft.state})`],
    ["Phone", draft.phone],
  ];

  return (
    <RegistrationFrame step={2} wide title="Your Membership" intro="Check your details, then claim your free access.">
      <div className="grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="summary-title" className="card">
          <div className="flex items-center justify-between gap-3">
            <h2 id="summary-title" className="text-xl font-bold">
              Membership summary
            </h2>
            <Link to="/register" className="text-sm font-semibold text-brand-700 underline">
              Edit details
            </Link>
          </div>
          <dl className="mt-5 divide-y divide-slate-100">
            {summary.map(([label, value]) => (
              <div key={label} className="grid grid-cols-[6rem_1fr] gap-3 py-3 text-sm">
                <dt className="font-semibold text-slate-500">{label}</dt>
                <dd className="wrap-anywhere text-slate-900">{value}</dd>
              </div>
            ))}
            <div className="grid grid-cols-[6rem_1fr] gap-3 py-3 text-sm">
              <dt className="font-semibold text-slate-500">Membership</dt>
              <dd className="text-slate-900">{MEMBERSHIP_LABELS[membershipType]}</dd>
            </div>
          </dl>
        </section>

        <section aria-labelledby="access-title" className="rounded-2xl border-2 border-amber-300 bg-white p-6 shadow-sm">
          <div className="flex items-start justify-between gap-3">
            <h2 id="access-title" className="flex items-center gap-2 text-xl font-bold">
              <StarIcon className="h-6 w-6 text-amber-500" />
              {cardTitles[membershipType]}
            </h2>
            <p className="text-right">
              <span className="block text-3xl font-extrabold text-slate-900">$0</span>
              <span className="text-xs font-semibold text-slate-500 uppercase">lifetime</span>
            </p>
          </div>
          <CheckList items={benefits} label="Included" className="mt-5 space-y-3" />
          <p className="mt-5 flex items-center gap-2 rounded-lg bg-green-50 px-3 py-2 text-sm font-medium text-green-800">
            <ShieldCheckIcon className="h-5 w-5 shrink-0" />
            No credit card required. Nothing is charged.
          </p>
          <Form method="post" className="mt-6">
            <SubmitButton busyLabel="Processing..." className="btn-primary w-full py-3 text-base">
              Complete Payment
            </SubmitButton>
          </Form>
        </section>
      </div>
    </RegistrationFrame>
  );
}
