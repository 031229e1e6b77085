/**
 * The moderation tabs: who blocked whom, members' reports to staff with what staff
 * decided, and staff's own hide and show decisions. Listed in the workbook (`tabs.ts`) like every other tab.
 */
import { MODERATED_KINDS, MODERATION_ACTIONS, REPORT_KINDS, REPORT_REASONS } from "../moderation";
import { choice, email, optionalTime, requiredText, text, time } from "./columns";
import { defineTab } from "./define-tab";

const BLOCK_STATUSES = ["active", "removed"] as const;

/**
 * Who blocked whom. Unblocking sets the status to removed rather than deleting the row,
 * so the tab keeps every block ever made; blocking again reuses the row.
 */
export const BLOCKS_TAB = defineTab({
  name: "Blocks",
  appendOnly: false,
  columns: {
    id: requiredText(),
    blockerEmail: email({ required: true }),
    blockedEmail: email({ required: true }),
    status: choice(BLOCK_STATUSES, "active"),
    createdAt: time(),
    updatedAt: optionalTime(),
  },
  indexes: {
    blockerEmail: (block) => block.blockerEmail,
    blockedEmail: (block) => block.blockedEmail,
  },
});

const REPORT_STATUSES = ["open", "closed"] as const;
/** What staff decided about the reported item; "hidden" takes a message or response off every page. */
const REPORTED_ITEM_STATUSES = ["visible", "hidden"] as const;

/**
 * Members' reports to staff, one row per member and item. Mutable, unlike the Messages
 * and Responses tabs, so staff hide a reported message or response here with
 * `itemStatus` and the next refresh sees it (docs/decisions/0028).
 */
export const REPORTS_TAB = defineTab({
  name: "Reports",
  appendOnly: false,
  columns: {
    id: requiredText(),
    kind: choice(REPORT_KINDS),
    itemId: requiredText(),
    /** Where staff see the item: the page's address, or for a message or response the tab and row id. */
    link: text(),
    reporterEmail: email({ required: true }),
    reportedEmail: email(),
    reason: choice(REPORT_REASONS),
    note: text(),
    createdAt: time(),
    status: choice(REPORT_STATUSES, "open"),
    staffNote: text(),
    itemStatus: choice(REPORTED_ITEM_STATUSES, "visible"),
  },
  indexes: {
    reporterEmail: (report) => report.reporterEmail,
    itemStatus: (report) => report.itemStatus,
  },
});

/**
 * Staff's decisions to hide or show a message, response, review, reply or invitation, one row
 * per decision, typed by staff. Always in the sheet or file, whatever holds the items' rows, so
 * every staff power works from the sheet with a database too (docs/decisions/0080). The site
 * never writes to it: an item's latest row decides, read on every refresh.
 */
export const MODERATION_TAB = defineTab({
  name: "Moderation",
  appendOnly: false,
  columns: {
    id: requiredText(),
    kind: choice(MODERATED_KINDS),
    itemId: requiredText(),
    action: choice(MODERATION_ACTIONS),
    note: text(),
    staffEmail: email(),
    createdAt: time(),
  },
  indexes: {},
});
