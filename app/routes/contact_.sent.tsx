import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { PRODUCT_NAME } from "~/domain/product";

export const meta: MetaFunction = () => [{ title: `Message Sent | ${PRODUCT_NAME}` }];

export default function ContactSent() {
  return (
    <section className="mx-auto max-w-xl px-4 py-20 text-center" aria-labelledby="sent-title">
      <div aria-hidden="true" className="mx-auto grid h-16 w-16 place-items-center rounded-full bg-green-100 text-3xl text-green-700">
        ✓
      </div>
      <h1 id="sent-title" className="mt-6 text-3xl font-bold">
        Thank you for contacting us!
      </h1>
      <p className="mt-4 text-slate-600">Your message has been sent to our support team. We respond within 24 hours on business days.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/contact" className="btn-primary">
          Send Another Message
        </Link>
        <Link to="/" className="btn-outline">
          Back to Home
        </Link>
      </div>
    </section>
  );
}
