import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { BotTrapFields } from "~/components/bot-trap";
import { SelectField, SubmitButton, TextField, useValidatedForm, ValidatedForm } from "~/components/form";
import { ArrowRightIcon, StarIcon } from "~/components/icons";
import { EmailTakenHelp, RegistrationFrame } from "~/components/registration-frame";
import { MARKET_STATE_NAMES, MARKET_STATES } from "~/domain/enums";
import { FOUNDER_CAP, PRODUCT_NAME } from "~/domain/product";
import { emailTakenHelp, emailTakenMessage } from "~/domain/account-messages";
import { quickRegistrationSchema } from "~/domain/registration";
import { formStartedAt, parseTrappedForm } from "~/server/bot-trap.server";
import { rejectSubmission } from "~/server/forms.server";
import { registeredAgent } from "~/server/registration/create-agent.server";
import { readDraft, saveDraft } from "~/server/registration/draft.server";
import { foundersLeftNow, matchVipCode } from "~/server/registration/vip.server";
import { OUTREACH_MESSAGES } from "~/domain/outreach";
import { markOpened, readOutreachLink } from "~/server/outreach/outreach.server";

export const meta: MetaFunction = () => [
  { title: `Join FREE | ${PRODUCT_NAME}` },
  { name: "description", content: `Register for ${PRODUCT_NAME}: FREE lifetime founder access for the first ${FOUNDER_CAP} agents.` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = context.services;
  const draft = await readDraft(context.services, request);
  // A code in the link wins over one remembered from an earlier visit.
  const vipCode = matchVipCode(config, new URL(request.url).searchParams.get("vip")) ?? matchVipCode(config, draft?.vipCode);
  const foundersLeft = foundersLeftNow(context.services);
  const previous = draft
    ? { fullName: draft.fullName, email: draft.email, phone: draft.phone, state: draft.state, city: draft.city }
    : undefined;
  const page = { vipCode: vipCode ?? null, foundersLeft, previous, botTrap: formStartedAt(config, "register") };
  const token = new URL(request.url).searchParams.get("invitation");
  if (token === null) return { ...page, invitation: null, invitationRefused: false };
  // A member's invitation: the invitee's name and address filled in, the link carried to credit the member.
  const link = readOutreachLink(context.services, token, new Date());
  if (!link.ok) return data({ ...page, invitation: null, invitationRefused: true }, { status: 400 });
  await markOpened(context.services, link.row, new Date());
  const inviter = context.services.store.agents.get(link.row.inviterId);
  return {
    ...page,
    previous: { ...previous, fullName: link.row.name, email: link.row.email },
    invitation: { token, inviterName: inviter?.fullName ?? "A member" },
    invitationRefused: false,
  };
}

/**
 * The bot trap is on this first screen: every later one, and the row the profile screen
 * creates, needs the draft cookie only this screen hands out (docs/decisions/0058).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { config } = context.services;
  const { submission, refusal } = await parseTrappedForm(request, config, "register", quickRegistrationSchema);
  if (refusal) return refusal;
  if (submission.status !== "success") return rejectSubmission(submission);

  const { vip, invitation, ...details } = submission.value;
  const existing = registeredAgent(context.services, details.email);
  if (existing) {
    return data(submission.reply({ fieldErrors: { email: [emailTakenMessage(existing.status)] } }), { status: 409 });
  }
  const link = invitation ? readOutreachLink(context.services, invitation, new Date()) : undefined;
  const outreachId = link?.ok ? link.row.id : undefined;
  const cookie = await saveDraft(context.services, { ...details, vipCode: matchVipCode(config, vip), outreachId });
  return redirect("/payment", { headers: { "Set-Cookie": cookie } });
}

const stateOptions = MARKET_STATES.map((code) => ({ value: code, label: `${MARKET_STATE_NAMES[code]} (${code})` }));

/** What happens after this screen; the first step names the access the visitor will get. */
const nextSteps = (access: string) => [
  { title: "Review your membership", text: `Confirm your details and your FREE ${access}. No credit card needed.` },
  { title: "Complete your agent profile", text: "Add your license, brokerage, specialties and a password." },
  { title: "License verification", text: "We check your license with the state's public database, usually within 24-48 hours." },
  { title: "Start networking", text: "Once approved, log in to send and receive referrals across Texas and Oklahoma." },
];

export default function Register() {
  const { vipCode, foundersLeft, previous, botTrap, invitation, invitationRefused } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm<typeof quickRegistrationSchema>(lastResult, { id: "register", defaultValue: previous });
  const emailTaken = emailTakenHelp(fields.email.errors);
  const founderOffer = foundersLeft > 0;

  return (
    <RegistrationFrame
      step={1}
      wide
      title="Join the Network"
      intro={`Tell us who you are. It takes a minute, and ${founderOffer ? "founder access is FREE for life" : "membership is FREE"}.`}
      top={
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
          <Link to="/" className="btn-outline">
            <ArrowRightIcon className="h-4 w-4 rotate-180" />
            Back to Home
          </Link>
          <p
            className="inline-flex items-center gap-2 rounded-full bg-amber-100 px-3 py-1.5 text-sm font-bold text-amber-900"
            data-testid="founder-badge"
          >
            <StarIcon className="h-4 w-4" />
            {founderOffer ? `Founder Access: FREE · ${foundersLeft} of ${FOUNDER_CAP} spots left` : "Membership: FREE"}
          </p>
        </div>
      }
    >
      {vipCode ? (
        <div role="status" className="mb-6 rounded-xl border border-purple-200 bg-purple-50 px-4 py-3 text-purple-900">
          <p className="font-bold">VIP invitation applied</p>
          <p className="text-sm">
            Your code <strong className="font-mono">{vipCode}</strong> is valid: you will join as a VIP member.
          </p>
        </div>
      ) : null}
      {invitation ? (
        <div role="status" className="mb-6 rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-brand-900">
          <p className="font-bold">{invitation.inviterName} invited you</p>
          <p className="text-sm">Your name and email are filled in. Check them, add the rest, and continue.</p>
        </div>
      ) : null}
      {invitationRefused ? (
        <div role="alert" className="mb-6 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          <p className="text-sm">{OUTREACH_MESSAGES.linkInvalid}</p>
        </div>
      ) : null}

      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="details-title" className="card">
          <h2 id="details-title" className="text-xl font-bold">
            Your details
          </h2>
          <ValidatedForm form={form} className="mt-6 space-y-5">
            {vipCode ? <input type="hidden" name={fields.vip.name} value={vipCode} /> : null}
            {invitation ? <input type="hidden" name={fields.invitation.name} value={invitation.token} /> : null}
            <BotTrapFields startedAt={botTrap} />
            <TextField field={fields.fullName} label="Full Name" autoComplete="name" />
            <div className="space-y-2">
              <TextField field={fields.email} label="Email Address" type="email" autoComplete="email" />
              <EmailTakenHelp help={emailTaken} />
            </div>
            <TextField
              field={fields.phone}
              label="Phone Number"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              hint="For example (214) 555-0100"
            />
            <div className="grid gap-5 sm:grid-cols-2">
              <SelectField field={fields.state} label="State" placeholder="Select your state" options={stateOptions} />
              <TextField field={fields.city} label="City" autoComplete="address-level2" />
            </div>
            <SubmitButton busyLabel="Processing..." className="btn-primary w-full py-3 text-base">
              Continue to Profile Setup
              <ArrowRightIcon className="h-5 w-5" />
            </SubmitButton>
          </ValidatedForm>
        </section>

        <section aria-labelledby="next-title" className="space-y-4">
          <h2 id="next-title" className="text-xl font-bold">
            What happens next
          </h2>
          <ol className="space-y-4">
            {nextSteps(founderOffer ? "founder access" : "membership").map((step, index) => (
              <li key={step.title} className="flex gap-4">
                <span className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-brand-50 font-bold text-brand-800">
                  {index + 1}
                </span>
                <div>
                  <h3 className="font-semibold text-slate-900">{step.title}</h3>
                  <p className="text-sm leading-relaxed text-slate-600">{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
          <p className="rounded-lg bg-slate-100 p-4 text-sm text-slate-600">
            Already a member?{" "}
            <Link to="/member-login" className="font-semibold text-brand-700 underline">
              Log in
            </Link>
          </p>
        </section>
      </div>
    </RegistrationFrame>
  );
}
