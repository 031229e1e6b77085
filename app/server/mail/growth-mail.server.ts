import type { WeeklyGrowth } from "~/domain/outreach";
import { PRODUCT_NAME } from "~/domain/product";
import { renderMailBody } from "./html.server";
import type { Mail } from "./mailer.server";

/** Staff's weekly count of growth from inside: invitations to join, and what became of them. */
export function weeklyGrowthMail(growth: WeeklyGrowth, week: string, supportEmail: string): Mail {
  const body = renderMailBody(
    `Invitations to join ${PRODUCT_NAME} in the 7 days before this week's digest (week of ${week}). The Outreach tab lists each one, and Agents' invitedBy column who brought whom.`,
    [
      ["Invitations sent", String(growth.sent)],
      ["Agents registered through one", String(growth.registered)],
      ["Of those, approved so far", String(growth.approved)],
    ],
  );
  return {
    to: supportEmail,
    subject: `[Weekly] Invitations: ${growth.sent} sent, ${growth.registered} registered, ${growth.approved} approved`,
    ...body,
  };
}
