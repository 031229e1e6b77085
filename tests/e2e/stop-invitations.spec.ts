import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createStopInvitingToken } from "../../app/server/outreach/stop-inviting.server";
import { expect, test } from "./fixtures";
import { e2eDataDir } from "./support/env";
import { lookAtEachWidth } from "./support/widths";

/** The link an invitation to `email` carries, signed with the server's own secret (made in its data folder outside production). */
function stopInvitingLink(email: string): string {
  const secret = readFileSync(path.join(e2eDataDir, ".dev-session-secret"), "utf8").trim();
  return `/stop-invitations?token=${encodeURIComponent(createStopInvitingToken([secret], email))}`;
}

test("the don't-invite-me-again link asks, then its button lists the address, without logging in", async ({ page }, testInfo) => {
  const email = `invited-${testInfo.project.name}-${randomUUID().slice(0, 8)}@long-brokerage-name-realty.example`;
  const link = stopInvitingLink(email);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Don’t invite me again" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await lookAtEachWidth(page, testInfo, { shot: "stop-invitations-confirm", withoutScriptsToo: true });

  await page.getByRole("button", { name: "Stop invitations" }).click();
  await expect(page.getByRole("heading", { name: "No more invitations" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(email);
  await lookAtEachWidth(page, testInfo, { shot: "stop-invitations-done", withoutScriptsToo: true });

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Already on the list" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop invitations" })).toHaveCount(0);

  const altered = await page.goto(link.replace("token=", "token=x"));
  expect(altered?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "This link is not valid" })).toBeVisible();
  await lookAtEachWidth(page, testInfo, { shot: "stop-invitations-invalid" });
});
