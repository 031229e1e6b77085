import { agentIdOf } from "~/domain/agent-id";
import { agentProfilePath } from "~/domain/directory-cards";
import type { ReportForm } from "~/domain/report-form";
import type { ReportKind } from "~/domain/moderation";
import { publishedReviews } from "~/domain/reviews";
import type { Agent } from "~/domain/workbook/tabs";
import { publicUrl } from "../accounts/urls.server";
import { findDirectoryAgent } from "../directory/directory.server";
import { reportMail } from "../mail/report-mail.server";
import { findRequestFor } from "../referral-requests/queries.server";
import type { Services } from "../services.server";
import { mayBeStored, rowIdFor } from "../idempotency-keys.server";
import { asModeratedReviews, hiddenAuthorsFor, hiddenItemIds } from "./visibility.server";

/** An item a member may report: one they can see on a page and did not write. */
export type ReportedItem = {
  kind: ReportKind;
  id: string;
  /** What the form shows of the item, so the member knows what they report. */
  title: string;
  /** The member who wrote it (or whose profile it is). */
  authorEmail: string;
  /** Where staff look at it: a page's path, or the tab and id of a row only its two members see. */
  link: string;
};

type ReportServices = Pick<Services, "store" | "directory" | "messageQueries">;

/**
 * The item the member may report, or undefined: an unknown id, an item of theirs, or
 * one they cannot see (another member's message, a response to someone else's request,
 * anything hidden or blocked) all look the same, so the form says nothing of others' items.
 */
export async function findReportable(
  services: ReportServices,
  member: Agent,
  kind: ReportKind,
  id: string,
): Promise<ReportedItem | undefined> {
  const item = await findItem(services, member, kind, id);
  if (!item || item.authorEmail === member.email) return undefined;
  // A published review stays on the profile whoever blocked whom, so it stays reportable.
  if (kind !== "review" && hiddenAuthorsFor(services, member).has(item.authorEmail)) return undefined;
  if (hiddenItemIds(services, kind).has(id)) return undefined;
  return item;
}

async function findItem(services: ReportServices, member: Agent, kind: ReportKind, id: string): Promise<ReportedItem | undefined> {
  const { store } = services;
  switch (kind) {
    case "request": {
      const request = findRequestFor(services, id, member);
      return request && { kind, id, title: request.title, authorEmail: request.agentEmail, link: `/referral-requests/${request.id}` };
    }
    case "response": {
      const response = store.responses.get(id);
      // Only the poster of the request reads its responses.
      if (!response || response.toEmail !== member.email || !findRequestFor(services, response.requestId, member)) return undefined;
      return { kind, id, title: `Response from ${response.fromName}`, authorEmail: response.fromEmail, link: `Responses tab, id ${id}` };
    }
    case "message": {
      const message = await services.messageQueries.message(id);
      if (!message || message.toEmail !== member.email) return undefined;
      const sender = store.agents.by("email", message.fromEmail)[0];
      return {
        kind,
        id,
        title: `Message from ${sender?.fullName ?? message.fromEmail}`,
        authorEmail: message.fromEmail,
        link: `Messages tab, id ${id}`,
      };
    }
    case "review": {
      // Members read a review once it is published, on the reviewed member's profile, unless staff hid it.
      const review = store.reviews.get(id);
      const ofReferral = review && asModeratedReviews(services, store.reviews.by("referralId", review.referralId));
      if (!review || !publishedReviews(ofReferral ?? [], new Date()).some((row) => row.id === id)) return undefined;
      const reviewer = store.agents.by("email", review.reviewerEmail)[0];
      return {
        kind,
        id,
        title: `Review by ${reviewer?.fullName ?? review.reviewerEmail}`,
        authorEmail: review.reviewerEmail,
        link: `Reviews tab, id ${id}`,
      };
    }
    case "profile": {
      const match = findDirectoryAgent(services, id);
      if (!match) return undefined;
      const agent = match.agent;
      return { kind, id: match.canonicalId, title: agent.fullName, authorEmail: agent.email, link: agentProfilePath(agentIdOf(agent)) };
    }
  }
}

/** True when the member already reported this item: one row per member and item. */
export function alreadyReported(
  { store }: Pick<Services, "store">,
  member: Pick<Agent, "email">,
  item: Pick<ReportedItem, "kind" | "id">,
): boolean {
  return store.reports.by("reporterEmail", member.email).some((report) => report.kind === item.kind && report.itemId === item.id);
}

export type FileReportResult = "sent" | "duplicate";

/**
 * Stores the report in the Reports tab, then queues the mail to staff (an account mail:
 * members' mail settings do not apply to staff). One decision at a time per member and item, so
 * a double click stores one row, and a report sent again after a lost answer is stored once
 * (docs/decisions/0032). A mail that fails is logged: the row is what staff
 * work from. Rejects when the row cannot be stored.
 */
export function fileReport(
  services: Pick<Services, "store" | "notifier" | "config" | "writeQueues">,
  options: { member: Agent; item: ReportedItem; form: ReportForm; now: Date; request: Request },
): Promise<FileReportResult> {
  const { store, notifier, config, writeQueues } = services;
  const { member, item, form, now, request } = options;
  return writeQueues.serially(`report:${member.email}/${item.kind}/${item.id}`, async () => {
    if (alreadyReported(services, member, item)) return "duplicate";
    const link = item.link.startsWith("/") ? publicUrl(config, item.link, request) : item.link;
    const report = await store.reports.insertOnce(
      {
        id: rowIdFor(member.email, form.idempotencyKey),
        kind: item.kind,
        itemId: item.id,
        link,
        reporterEmail: member.email,
        reportedEmail: item.authorEmail,
        reason: form.reason,
        note: form.note ?? "",
        createdAt: now.toISOString(),
        status: "open",
        staffNote: "",
        itemStatus: "visible",
      },
      mayBeStored(form.idempotencyKey),
    );
    notifier.enqueue({ mail: reportMail(report, item.title, config.supportEmail), about: `the staff mail of report ${report.id}` });
    return "sent";
  });
}
