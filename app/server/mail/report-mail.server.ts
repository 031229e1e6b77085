import { REPORT_KIND_LABELS, REPORT_REASON_LABELS } from "~/domain/moderation";
import { PRODUCT_NAME } from "~/domain/product";
import type { Report } from "~/domain/workbook/tabs";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

/** Staff's mail about one report: what, who, why, and where the row is to act on it. */
export function reportMail(report: Report, itemTitle: string, supportEmail: string): Mail {
  const kind = REPORT_KIND_LABELS[report.kind];
  const reason = REPORT_REASON_LABELS[report.reason];
  const body = renderMailBody(`A member reported a ${kind} on ${PRODUCT_NAME}. The report is row ${report.id} of the Reports tab.`, [
    ["Reported", `${kind}: ${itemTitle}`],
    ["Link", report.link],
    ["Reported member", report.reportedEmail || "unknown"],
    ["Reason", reason],
    ["Note", report.note || "none"],
    ["Reported by", report.reporterEmail],
    ["Received", report.createdAt],
  ]);
  return { to: supportEmail, subject: `[Report] ${reason}: ${kind} ${itemTitle.replace(/\s+/g, " ").slice(0, 80)}`, ...body };
}
