import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { conversationStatusHandlers } from "~/components/error-screens";
import { BlockButton } from "~/components/block-button";
import { MessageComposer } from "~/components/message-composer";
import { useFlashNotice } from "~/components/use-flash-notice";
import { MessageConversationList } from "~/components/message-conversation-list";
import { useLiveMessages } from "~/components/message-live-updates";
import { MessageThread, NoConversationOpen } from "~/components/message-thread";
import { PageHeading } from "~/components/page-heading";
import { parsePageNumber } from "~/domain/directory-search";
import {
  CANNOT_RECEIVE,
  contactInfoText,
  conversationPath,
  NO_CONVERSATION,
  SEND_FAILED,
  type ConversationListItem,
} from "~/domain/messages";
import { messageSchema } from "~/domain/message-box";
import { BLOCKED_CANNOT_MESSAGE } from "~/domain/moderation";
import { PRODUCT_NAME } from "~/domain/product";
import { hasControlCharacters } from "~/domain/text";
import type { Agent } from "~/domain/workbook/tabs";
import { passRetryAfter, tooManyInit, tooManyMessage } from "~/server/accounts/throttle.server";
import { requireMember } from "~/server/auth/session.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { newIdempotencyKey } from "~/server/idempotency-keys.server";
import { parseSubmission, readForm } from "~/server/forms.server";
import {
  conversationListPage,
  conversationsOf,
  newestIn,
  openFromUrl,
  toThreadMessage,
  unreadIn,
  unlessUnavailable,
  type OpenConversation,
} from "~/server/messages/conversations.server";
import { sendMessage } from "~/server/messages/send.server";
import type { Services } from "~/server/services.server";
import { StoreError } from "~/server/store/store.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [
  { title: `Messages | ${PRODUCT_NAME}` },
  { name: "description", content: "Your conversations with other agents in the network." },
];

export const headers = passRetryAfter;

/**
 * Requests (by their load context, one per request) whose action answered with the page, a
 * refusal, rather than a redirect. Without JavaScript the loader then renders that page,
 * and its redirect from `?to=` to a conversation already under way would replace the
 * refusal with the very redirect that means "sent": the message lost while the member is
 * told it was stored. The loader takes the mark off as it renders.
 */
const answeredByAction = new WeakSet<AppLoadContext>();

/** Opening a thread marks it read; a failed write only leaves the count as it was. */
async function markOpenedRead(
  { messageQueries }: Pick<Services, "messageQueries">,
  member: Agent,
  opened: OpenConversation,
): Promise<void> {
  const upTo = opened.thread?.readUpTo;
  if (upTo === undefined) return;
  try {
    await messageQueries.markRead(opened.conversationId, member.email, upTo);
  } catch (error) {
    console.error(`Messages: could not store that ${member.email} read conversation ${opened.conversationId}`, error);
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { services } = context;
  const url = new URL(request.url);
  const opened = await openFromUrl(services, member, url);
  const rendersActionAnswer = answeredByAction.delete(context);
  if (opened.kind === "open" && opened.existingPath && !rendersActionAnswer) throw redirect(opened.existingPath);
  if (opened.kind === "open") await markOpenedRead(services, member, opened);

  const open =
    opened.kind === "open"
      ? {
          conversationId: opened.conversationId,
          partner: opened.partner,
          // Null while the database is out of reach: the thread says so, and the message box stays.
          messages: opened.thread?.messages.map((message) => toThreadMessage(message, member)) ?? null,
          threadPage: opened.thread?.page ?? 1,
          threadPageCount: opened.thread?.pageCount ?? 1,
          canSend: opened.partner.canReceive && !opened.blocked,
          blocked: opened.blocked,
          blockedByMe: opened.blockedByMe,
          /** The partner's row id, for the block form; null when their row is gone. */
          partnerRowId: opened.partnerAgent?.id ?? null,
          // A conversation opened with ?to= and no message yet: listed at the top, at this address.
          draftHref: opened.thread?.total === 0 ? url.pathname + url.search : null,
        }
      : null;
  // Read after opening the thread marked it read; the header shows this count rather than the root's, read alongside.
  const summaries = await unlessUnavailable(conversationsOf(services, member));
  const { notice, headers } = await takeNotice(services, request, ["cleaned"]);
  const body = {
    now: new Date().toISOString(),
    unreadMessages: summaries && unreadIn(summaries),
    since: summaries ? newestIn(summaries) : "",
    conversationsUnavailable: summaries === null,
    ...conversationListPage(services, member, summaries ?? [], parsePageNumber(url.searchParams.get("page"))),
    refusal: opened.kind === "refused" ? opened.message : null,
    notice,
    open,
    idempotencyKey: newIdempotencyKey(),
  };
  return data(body, { status: opened.kind === "refused" ? opened.status : 200, headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const opened = await openFromUrl(context.services, member, new URL(request.url));
  const { formData, refusal } = await readForm(request);
  const intent = formData.get("intent") === "share" ? "share" : "send";
  const submission = parseSubmission(formData, messageSchema, refusal);

  const answerWithPage = <T,>(body: T, init: number | ResponseInit) => {
    answeredByAction.add(context);
    return data(body, init);
  };
  const refuse = (message: string, init: number | ResponseInit) =>
    intent === "share"
      ? answerWithPage({ intent, shareError: message, result: undefined }, init)
      : answerWithPage({ intent, shareError: undefined, result: submission.reply({ formErrors: [message] }) }, init);

  if (opened.kind === "none") return refuse(NO_CONVERSATION, 400);
  if (opened.kind === "refused") return refuse(opened.message, opened.status);
  if (!opened.partnerAgent || !opened.partner.canReceive) return refuse(CANNOT_RECEIVE, 400);
  if (opened.blocked) return refuse(BLOCKED_CANNOT_MESSAGE, 403);

  let text: string;
  if (intent === "share") {
    text = contactInfoText(member);
  } else if (submission.status === "success") {
    text = submission.value.text;
  } else {
    return answerWithPage({ intent, shareError: undefined, result: submission.reply() }, { status: 400 });
  }
  const allowed = limitMemberWrite(context, "message", member);
  if (!allowed.allowed)
    return refuse(tooManyMessage(WRITE_NAMES.message, allowed.retryAfterSeconds), tooManyInit(allowed.retryAfterSeconds));

  try {
    await sendMessage(context.services, {
      sender: member,
      recipient: opened.partnerAgent,
      conversationId: opened.conversationId,
      text,
      idempotencyKey: intent === "send" && submission.status === "success" ? submission.value.idempotencyKey : undefined,
      request,
    });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    console.error("Messages: message not stored:", error);
    return refuse(SEND_FAILED, 503);
  }
  // Back to the conversation's own address: a reload does not post again. The form removed
  // control characters before the schema saw the text; the sender is told rather than left to notice.
  const path = conversationPath(opened.conversationId);
  const cleaned = intent === "send" && hasControlCharacters(String(formData.get("text") ?? ""));
  return cleaned ? redirectWithNotice(context.services, path, "cleaned") : redirect(path);
}

export default function MessagesPage() {
  const {
    now,
    since,
    conversations,
    conversationsUnavailable,
    conversationTotal,
    page,
    pageCount,
    refusal,
    open,
    idempotencyKey,
    ...loaded
  } = useLoaderData<typeof loader>();
  const notice = useFlashNotice(loaded.notice);
  const actionData = useActionData<typeof action>();
  useLiveMessages(since);
  const today = new Date(now);

  const draft: { item: ConversationListItem; href: string } | null =
    open?.draftHref != null
      ? {
          item: {
            conversationId: open.conversationId,
            partner: open.partner,
            preview: "New conversation",
            lastAt: "",
            lastFromMe: false,
            unread: 0,
          },
          href: open.draftHref,
        }
      : null;

  // Under 768 px one pane shows: the thread when the address opens one, the list otherwise.
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-10">
      {/* On a phone the open thread fills the screen; the page keeps its heading for screen readers. */}
      <div className={open ? "max-md:sr-only" : undefined}>
        <PageHeading title="Messages" intro="Talk with other agents about referrals, listings and buyers." />
      </div>
      {refusal ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {refusal}
        </p>
      ) : null}
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm md:mt-8 md:grid md:grid-cols-[20rem_minmax(0,1fr)] md:grid-rows-[600px] max-md:mt-6">
        <MessageConversationList
          conversations={conversations}
          unavailable={conversationsUnavailable}
          draft={draft}
          activeId={open?.conversationId ?? null}
          page={page}
          pageCount={pageCount}
          now={today}
          className={open ? "hidden md:flex md:min-h-0" : "flex md:min-h-0"}
        />
        <section
          aria-label={open ? `Conversation with ${open.partner.fullName}` : "Conversation"}
          className={`min-h-0 flex-col ${open ? "flex h-[calc(100dvh-8.5rem)] min-h-[26rem] md:h-auto" : "hidden md:flex"}`}
        >
          {open ? (
            <MessageThread
              key={open.conversationId}
              partner={open.partner}
              messages={open.messages}
              threadPage={open.threadPage}
              threadPageCount={open.threadPageCount}
              now={today}
              actions={
                open.partnerRowId ? (
                  <BlockButton
                    agentId={open.partnerRowId}
                    agentName={open.partner.fullName}
                    blocked={open.blockedByMe}
                    back={conversationPath(open.conversationId)}
                    className="shrink-0 text-sm font-semibold text-slate-700 hover:underline"
                  />
                ) : null
              }
              composer={
                open.canSend ? (
                  <MessageComposer
                    key={open.conversationId}
                    idempotencyKey={idempotencyKey}
                    notice={notice}
                    lastResult={actionData?.intent === "send" ? actionData.result : undefined}
                    shareError={actionData?.intent === "share" ? actionData.shareError : undefined}
                  />
                ) : (
                  <p className="border-t border-slate-200 px-4 py-4 text-sm text-slate-600">
                    {open.blocked ? BLOCKED_CANNOT_MESSAGE : CANNOT_RECEIVE}
                  </p>
                )
              }
            />
          ) : (
            <NoConversationOpen hasConversations={conversationsUnavailable || conversationTotal > 0} />
          )}
        </section>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={conversationStatusHandlers} />;
}
