import { CLAIM_KEYS } from "~/domain/claim-keys";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BotTrapFields } from "~/components/bot-trap";
import {
  IdempotencyKeyInput,
  SelectField,
  SubmitButton,
  TextareaField,
  TextField,
  useValidatedForm,
  ValidatedForm,
} from "~/components/form";
import { PageHeading } from "~/components/page-heading";
import { contactSchema, NOT_PROVIDED, type ContactMessage } from "~/domain/contact";
import { CONTACT_CATEGORIES, MARKET_STATE_NAMES, MARKET_STATES } from "~/domain/enums";
import { PRODUCT_NAME } from "~/domain/product";
import type { ContactRow } from "~/domain/workbook/tabs";
import { passRetryAfter, refuseTooMany } from "~/server/accounts/throttle.server";
import { formStartedAt, parseTrappedForm } from "~/server/bot-trap.server";
import { rejectSubmission } from "~/server/forms.server";
import { contactMail } from "~/server/mail/contact-mail.server";
import { mayBeStored, newIdempotencyKey, rowIdFor } from "~/server/idempotency-keys.server";
import { limitVisitorWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [
  { title: `Contact Support | ${PRODUCT_NAME}` },
  { name: "description", content: `Questions about ${PRODUCT_NAME}? Our support team answers within 24 hours on business days.` },
];

export const headers = passRetryAfter;

export function loader({ context }: LoaderFunctionArgs) {
  const { config } = context.services;
  return {
    supportEmail: config.supportEmail,
    privacyEmail: config.privacyEmail,
    idempotencyKey: newIdempotencyKey(),
    botTrap: formStartedAt(config, "contact"),
  };
}

/** A bot caught by the trap is refused before the limits count it: nothing is stored or mailed (docs/decisions/0058). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { submission, refusal } = await parseTrappedForm(request, context.services.config, "contact", contactSchema);
  if (refusal) return refusal;
  if (submission.status !== "success") return rejectSubmission(submission);
  const allowed = limitVisitorWrite(context, "contact");
  if (!allowed.allowed) return refuseTooMany(submission, WRITE_NAMES.contact, allowed.retryAfterSeconds);

  const { notifier, config, store } = context.services;
  const receivedAt = new Date();
  let row: ContactRow;
  try {
    row = await store.contact.insertOnce(contactRow(submission.value, receivedAt), mayBeStored(submission.value.idempotencyKey));
  } catch (error) {
    console.error("Contact message not stored:", error);
    return rejectSubmission(submission, {
      status: 503,
      formErrors: [`Failed to send message. Please try again or email us directly at ${config.supportEmail}`],
    });
  }
  // Reported sent once the Contact tab keeps it (docs/decisions/0036): the mail to support is
  // queued, claimed once per row so a resent form mails once, and a failure is a `failed` claim row.
  notifier.enqueue(
    {
      mail: contactMail(submission.value, config.supportEmail, receivedAt),
      about: `the contact message ${row.id} (kept in the Contact tab)`,
    },
    { once: CLAIM_KEYS.contact.key(row.id), now: receivedAt },
  );
  return redirect("/contact/sent");
}

function contactRow(message: ContactMessage, receivedAt: Date): ContactRow {
  return {
    id: rowIdFor(message.email, message.idempotencyKey),
    name: message.name,
    email: message.email,
    subject: message.subject,
    category: message.category,
    message: message.message,
    agentLicense: message.agentLicense || NOT_PROVIDED,
    state: message.state ?? NOT_PROVIDED,
    createdAt: receivedAt.toISOString(),
  };
}

const stateOptions = MARKET_STATES.map((code) => ({ value: code, label: `${MARKET_STATE_NAMES[code]} (${code})` }));

const faqs = [
  {
    question: "How long does license verification take?",
    answer:
      "We verify every license against the Texas (TREC) and Oklahoma (OREC) public license databases. Verification usually takes 24-48 hours.",
  },
  {
    question: "What is your refund policy?",
    answer:
      "Refunds are considered case by case within 30 days of payment. Founder access is free, so there is nothing to refund for founding members.",
  },
  {
    question: "Who handles referral agreements?",
    answer: `Referral agreements and fees are made directly between the agents involved. ${PRODUCT_NAME} connects you; it is not a party to the agreement.`,
  },
  {
    question: "How is my information kept secure?",
    answer: "All traffic is encrypted with SSL, the service runs on secure hosting, and we review our security regularly through audits.",
  },
];

export default function ContactPage() {
  const { supportEmail, privacyEmail, idempotencyKey, botTrap } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof contactSchema>(lastResult);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <PageHeading
        title="Contact Support"
        intro="Questions about your membership, your license verification or a referral? We're here to help."
      />

      <ul className="mt-10 grid gap-4 sm:grid-cols-3">
        <li className="card">
          <h2 className="font-semibold">Email Support</h2>
          <a href={`mailto:${supportEmail}`} className="mt-1 block break-all text-brand-700 underline">
            {supportEmail}
          </a>
          <p className="mt-2 text-sm text-slate-600">For account, membership and technical questions.</p>
        </li>
        <li className="card">
          <h2 className="font-semibold">Privacy Questions</h2>
          <a href={`mailto:${privacyEmail}`} className="mt-1 block break-all text-brand-700 underline">
            {privacyEmail}
          </a>
          <p className="mt-2 text-sm text-slate-600">Privacy requests are answered within 30 days.</p>
        </li>
        <li className="card">
          <h2 className="font-semibold">Response Time</h2>
          <p className="mt-1 font-medium text-slate-800">Within 24 hours</p>
          <p className="mt-2 text-sm text-slate-600">We reply within 24 hours on business days.</p>
        </li>
      </ul>

      <div className="mt-10 grid gap-10 lg:grid-cols-[3fr_2fr]">
        <section className="card" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title" className="text-xl font-bold">
            Send us a message
          </h2>
          <ValidatedForm form={form} className="mt-6 space-y-5">
            <IdempotencyKeyInput field={fields.idempotencyKey} fresh={idempotencyKey} />
            <BotTrapFields startedAt={botTrap} />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField field={fields.name} label="Full Name" autoComplete="name" />
              <TextField field={fields.email} label="Email Address" type="email" autoComplete="email" />
            </div>
            <SelectField field={fields.category} label="Category" placeholder="Select a category" options={CONTACT_CATEGORIES} />
            <TextField field={fields.subject} label="Subject" />
            <TextareaField field={fields.message} label="Message" rows={6} />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField field={fields.agentLicense} label="Agent License Number" optional />
              <SelectField field={fields.state} label="License State" optional placeholder="Select a state" options={stateOptions} />
            </div>
            <SubmitButton busyLabel="Sending...">Send Message</SubmitButton>
          </ValidatedForm>
        </section>

        <section aria-labelledby="faq-title">
          <h2 id="faq-title" className="text-xl font-bold">
            Frequently Asked Questions
          </h2>
          <dl className="mt-6 space-y-4">
            {faqs.map((faq) => (
              <div key={faq.question} className="card">
                <dt className="font-semibold">{faq.question}</dt>
                <dd className="mt-2 text-sm leading-relaxed text-slate-600">{faq.answer}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </div>
  );
}
