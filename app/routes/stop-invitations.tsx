import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AnswerCard } from "~/components/answer-card";
import { SubmitButton } from "~/components/form";
import { PRODUCT_NAME } from "~/domain/product";
import { STOP_INVITING_PATH } from "~/domain/stop-invitations";
import { readStopInvitingToken } from "~/server/outreach/stop-inviting.server";
import { isAddressSuppressed, suppressAddress } from "~/server/outreach/suppression.server";

export const meta: MetaFunction = () => [{ title: `Don't invite me again | ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** The page answers for a signed link: no cache may keep it. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

type Answer =
  { state: "confirm"; token: string; email: string } | { state: "listed" | "done"; email: string } | { state: "invalid" | "failed" };

function readLink(request: Request, context: LoaderFunctionArgs["context"]): { token: string; email: string | undefined } {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, email: readStopInvitingToken(context.services.config.sessionSecrets, token) };
}

/** A link that is not ours, or was altered, changes nothing. */
const invalid = () => data<Answer>({ state: "invalid" }, { status: 400 });

/**
 * Opening the link only asks: mail scanners and link previews fetch every GET in a mail, so
 * a GET that listed the address would stop invitations nobody asked to stop (docs/decisions/0084).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, email } = readLink(request, context);
  if (email === undefined) return invalid();
  if (isAddressSuppressed(context.services, email)) return data<Answer>({ state: "listed", email });
  return data<Answer>({ state: "confirm", token, email });
}

/**
 * Lists the address. Both the page's button and a mail program's RFC 8058 one-click POST
 * (body `List-Unsubscribe=One-Click`) land here, without a session: the signed token in the
 * address is the authority, so the body is not needed and not read.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { email } = readLink(request, context);
  if (email === undefined) return invalid();
  try {
    const outcome = await suppressAddress(context.services, {
      email,
      reason: "asked",
      note: "Don't invite me again link in an invitation",
      now: new Date(),
    });
    return data<Answer>({ state: outcome === "added" ? "done" : "listed", email });
  } catch (error) {
    console.error("Don't invite me again: the address could not be listed just now:", error);
    return data<Answer>({ state: "failed" }, { status: 503 });
  }
}

export default function StopInvitations() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const answer = acted ?? loaded;
  return (
    <AnswerCard>
      <AnswerBody answer={answer} />
    </AnswerCard>
  );
}

const heading = "text-2xl font-extrabold tracking-tight text-slate-900";

function AnswerBody({ answer }: { answer: Answer }) {
  switch (answer.state) {
    case "confirm":
      return (
        <>
          <h1 className={heading}>Don&rsquo;t invite me again</h1>
          <p className="text-slate-700">
            Stop every invitation to <strong className="break-all">{answer.email}</strong>? No member of {PRODUCT_NAME} will be able to
            invite this address again.
          </p>
          <Form method="post" action={`${STOP_INVITING_PATH}?token=${encodeURIComponent(answer.token)}`}>
            {/* The same body a mail program's one-click POST sends. */}
            <input type="hidden" name="List-Unsubscribe" value="One-Click" />
            <SubmitButton busyLabel="Stopping invitations...">Stop invitations</SubmitButton>
          </Form>
        </>
      );
    case "done":
      return (
        <>
          <h1 className={heading}>No more invitations</h1>
          <p role="status" className="text-slate-700">
            <strong className="break-all">{answer.email}</strong> is on our do-not-invite list. No member can invite it again.
          </p>
        </>
      );
    case "listed":
      return (
        <>
          <h1 className={heading}>Already on the list</h1>
          <p role="status" className="text-slate-700">
            <strong className="break-all">{answer.email}</strong> is already on our do-not-invite list. No member can invite it again.
          </p>
        </>
      );
    case "failed":
      return (
        <>
          <h1 className={heading}>Not stopped yet</h1>
          <p role="alert" className="text-slate-700">
            Your choice could not be saved just now, so nothing changed. Please open the link from the mail again in a few minutes.
          </p>
        </>
      );
    case "invalid":
      return (
        <>
          <h1 className={heading}>This link is not valid</h1>
          <p className="text-slate-700">
            It may have been cut short or changed when it was copied, and nothing was changed. Open the link straight from the invitation
            mail.
          </p>
        </>
      );
  }
}
