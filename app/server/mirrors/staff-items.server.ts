/**
 * The items the mirror tabs show staff (docs/decisions/0081): whether each is hidden, as the
 * pages decide it, and its text and author, for a report or a staff decision alike.
 */
import type { ModeratedKind, ReportKind } from "~/domain/moderation";
import type { Message, ModerationRow, Report } from "~/domain/workbook/tabs";
import type { MessageQueries } from "../messages/message-queries.server";
import { asModeratedInvitations, asModeratedReviews, hiddenItemIds, isReplyHidden } from "../moderation/visibility.server";
import type { Store } from "../store/store.server";

/** What the mirrors read: the replica, and the messages' queries (the database's, or the replica's without one). */
export type Sources = { store: Store; messageQueries: Pick<MessageQueries, "forStaff" | "perDay"> };

/**
 * Whether staff took an item off the pages, as the pages decide it (docs/decisions/0080):
 * the item's latest Moderation row, else a report's `itemStatus` or the row's own `status`.
 */
export type HiddenCheck = (kind: ReportKind | ModeratedKind, id: string) => boolean;

/** A check for one rewrite: each kind's hidden ids are worked out once, not once per row. */
export function hiddenItemCheck(sources: Pick<Sources, "store">): HiddenCheck {
  const { store } = sources;
  const hiddenByKind = new Map<ReportKind, Set<string>>();
  return (kind, id) => {
    switch (kind) {
      case "review": {
        const review = store.reviews.get(id);
        return review !== undefined && asModeratedReviews(sources, [review])[0]!.status === "hidden";
      }
      case "reply":
        return isReplyHidden(sources, id);
      case "invitation": {
        const invitation = store.invitations.get(id);
        return invitation !== undefined && asModeratedInvitations(sources, [invitation])[0]!.status === "hidden";
      }
      default: {
        let hidden = hiddenByKind.get(kind);
        if (!hidden) hiddenByKind.set(kind, (hidden = hiddenItemIds(sources, kind)));
        return hidden.has(id);
      }
    }
  };
}

/** The reported item's text and author; the reported messages come from one query (`messages`). */
export function itemText(
  sources: Sources,
  report: Pick<Report, "kind" | "itemId">,
  messages: ReadonlyMap<string, Message>,
): { text: string; author: string } {
  const { store } = sources;
  switch (report.kind) {
    case "message": {
      const message = messages.get(report.itemId);
      return { text: message?.text ?? "(not found)", author: message?.fromEmail ?? "" };
    }
    case "response": {
      const response = store.responses.get(report.itemId);
      return { text: response?.message ?? "(not found)", author: response?.fromEmail ?? "" };
    }
    case "request": {
      const request = store.requests.get(report.itemId);
      return { text: request ? `${request.title}: ${request.description}` : "(not found)", author: request?.agentEmail ?? "" };
    }
    case "review": {
      const review = store.reviews.get(report.itemId);
      return { text: review?.text ?? "(not found)", author: review?.reviewerEmail ?? "" };
    }
    case "profile": {
      const agent = store.agents.get(report.itemId) ?? store.agents.by("email", report.itemId)[0];
      return { text: agent ? `${agent.fullName}: ${agent.bio}` : "(not found)", author: agent?.email ?? "" };
    }
  }
}

/** A Moderation row of the last 30 days: what staff decided, by whom, and whether the item is hidden now. */
export function decisionRow(
  sources: Sources,
  decision: ModerationRow,
  messages: ReadonlyMap<string, Message>,
  isHidden: HiddenCheck,
): string[] {
  const { text, author } = decidedItemText(sources, decision, messages);
  const status = isHidden(decision.kind, decision.itemId) ? "hidden" : "visible";
  return [
    decision.createdAt,
    decision.kind,
    decision.itemId,
    status,
    text,
    author,
    decision.staffEmail,
    `${decision.action} by staff`,
    decision.note,
    "",
  ];
}

function decidedItemText(
  sources: Sources,
  decision: ModerationRow,
  messages: ReadonlyMap<string, Message>,
): { text: string; author: string } {
  const { store } = sources;
  switch (decision.kind) {
    case "reply": {
      const review = store.reviews.get(decision.itemId);
      return { text: review?.reply ?? "(not found)", author: review?.reviewedEmail ?? "" };
    }
    case "invitation": {
      const invitation = store.invitations.get(decision.itemId);
      const request = invitation && store.requests.get(invitation.requestId);
      return {
        text: invitation ? `invitation of ${invitation.agentEmail} to "${request?.title ?? invitation.requestId}"` : "(not found)",
        author: invitation?.posterEmail ?? "",
      };
    }
    default:
      return itemText(sources, { kind: decision.kind, itemId: decision.itemId }, messages);
  }
}
