import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowRightIcon, CheckIcon } from "~/components/icons";
import { RegistrationFrame } from "~/components/registration-frame";
import { PRODUCT_NAME } from "~/domain/product";
import { readDraft } from "~/server/registration/draft.server";

export const meta: MetaFunction = () => [{ title: `Membership Confirmed | ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const draft = await readDraft(context.services, request);
  if (!draft) throw redirect("/register");
  return { firstName: draft.fullName.split(/\s+/)[0] ?? draft.fullName };
}

export default function RegistrationSuccess() {
  const { firstName } = useLoaderData<typeof loader>();
  return (
    <RegistrationFrame step={3} title={`You're in, ${firstName}!`}>
      <section aria-labelledby="confirmed-title" className="card text-center">
        <span
          aria-hidden="true"
          className="mx-auto grid h-16 w-16 place-items-center rounded-full bg-green-100 text-green-700 ring-8 ring-green-50"
        >
          <CheckIcon className="h-8 w-8" strokeWidth={2.4} />
        </span>
        <h2 id="confirmed-title" className="mt-5 text-2xl font-bold text-slate-900">
          Your free membership is confirmed
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-slate-600">
          Nothing was charged. One last step: complete your agent profile with your license, brokerage and a password, so we can verify you
          and set up your login.
        </p>
        <Link to="/complete-profile" className="btn-primary mt-8 px-6 py-3 text-base">
          Complete Your Profile
          <ArrowRightIcon className="h-5 w-5" />
        </Link>
      </section>
    </RegistrationFrame>
  );
}
