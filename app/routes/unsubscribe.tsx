import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AnswerCard } from "~/components/answer-card";
import { SubmitButton } from "~/components/form";
import { MAIL_KIND_LABELS, NOTIFICATION_SETTINGS_PATH, UNSUBSCRIBE_PATH, wantsMail, withMailOff } from "~/domain/notifications";
import { PRODUCT_NAME } from "~/domain/product";
import { readUnsubscribeToken, type UnsubscribeLink } from "~/server/mail/unsubscribe.server";

export const meta: MetaFunction = () => [{ title: `Unsubscribe | ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** The page answers for a signed link: no cache may keep it. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

type Answer =
  | { state: "confirm"; token: string; label: string; email: string; alreadyOff: boolean }
  | { state: "done"; label: string }
  | { state: "invalid" | "expired" | "failed" };

function readLink(request: Request, context: LoaderFunctionArgs["context"]): { token: string; link: UnsubscribeLink } {
  const { config, store } = context.services;
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, link: readUnsubscribeToken(config.sessionSecrets, token, (id) => store.agents.get(id)) };
}

/** A link that is not ours (or was altered) is a 400, a genuine one past its time a 410; neither changes anything. */
function refused(link: Extract<UnsubscribeLink, { ok: false }>) {
  return data<Answer>({ state: link.reason }, { status: link.reason === "expired" ? 410 : 400 });
}

/**
 * Opening the link only asks: mail scanners and link previews fetch every GET in a mail,
 * so a GET that unsubscribed would turn mail off that nobody chose to (docs/decisions/0027).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, link } = readLink(request, context);
  if (!link.ok) return refused(link);
  return data<Answer>({
    state: "confirm",
    token,
    label: MAIL_KIND_LABELS[link.kind],
    email: link.agent.email,
    alreadyOff: !wantsMail(link.agent, link.kind),
  });
}

/**
 * Turns the kind off. Both the page's button and a mail program's RFC 8058 one-click POST
 * (body `List-Unsubscribe=One-Click`) land here, without a session: the signed token in the
 * address is the authority, so the body is not needed and not read.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { link } = readLink(request, context);
  if (!link.ok) return refused(link);
  const { agent, kind } = link;
  if (wantsMail(agent, kind)) {
    try {
      await context.services.store.agents.update(agent.id, { mailOff: withMailOff(agent, kind) });
    } catch (error) {
      console.error(`Unsubscribe of agent ${agent.id} from ${kind} mails not saved:`, error);
      return data<Answer>({ state: "failed" }, { status: 503 });
    }
  }
  return data<Answer>({ state: "done", label: MAIL_KIND_LABELS[kind] });
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const answer = acted ?? loaded;
  return (
    <AnswerCard>
      <AnswerBody answer={answer} />
    </AnswerCard>
  );
}

function AnswerBody({ answer }: { answer: Answer }) {
  switch (answer.state) {
    case "confirm":
      return <Confirm {...answer} />;
    case "done":
      return (
        <>
          <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">You are unsubscribed</h1>
          <p role="status" className="text-slate-700">
            You will no longer get &ldquo;{answer.label}&rdquo; mails. Mails about your account still go.
          </p>
          <SettingsLink />
        </>
      );
    case "failed":
      return (
        <>
          <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">Not unsubscribed yet</h1>
          <p role="alert" className="text-slate-700">
            Your choice could not be saved just now, so nothing changed. Please open the link from the mail again in a few minutes.
          </p>
        </>
      );
    case "expired":
      return (
        <>
          <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">This link has expired</h1>
          <p className="text-slate-700">
            Unsubscribe links work for 90 days, and nothing was changed. Use the link in a newer mail, or log in and choose your mails on
            the settings page.
          </p>
          <SettingsLink />
        </>
      );
    case "invalid":
      return (
        <>
          <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">This unsubscribe link is not valid</h1>
          <p className="text-slate-700">
            It may have been cut short or changed when it was copied, and nothing was changed. Open the link straight from the mail, or log
            in and choose your mails on the settings page.
          </p>
          <SettingsLink />
        </>
      );
  }
}

function Confirm({ token, label, email, alreadyOff }: Extract<Answer, { state: "confirm" }>) {
  if (alreadyOff)
    return (
      <>
        <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">Already unsubscribed</h1>
        <p className="text-slate-700">
          <strong className="break-all">{email}</strong> no longer gets &ldquo;{label}&rdquo; mails.
        </p>
        <SettingsLink />
      </>
    );
  return (
    <>
      <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">Unsubscribe</h1>
      <p className="text-slate-700">
        Stop &ldquo;{label}&rdquo; mails to <strong className="break-all">{email}</strong>? Mails about your account still go.
      </p>
      <Form method="post" action={`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`}>
        {/* The same body a mail program's one-click POST sends. */}
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <SubmitButton busyLabel="Unsubscribing...">Unsubscribe</SubmitButton>
      </Form>
      <SettingsLink />
    </>
  );
}

function SettingsLink() {
  return (
    <p className="text-sm text-slate-600">
      <Link to={NOTIFICATION_SETTINGS_PATH} className="font-semibold text-brand-700 hover:underline">
        Choose which mails you get
      </Link>{" "}
      (members only: log in if asked).
    </p>
  );
}
