import { expect, test } from "./fixtures";
import { LOGIN_MESSAGES } from "../../app/domain/auth";
import { updateAgentRow } from "./support/agents";

test("a member staff suspend is told so on their next page, and their old session never comes back", async ({
  browser,
  javaScriptEnabled,
  memberPage,
  seedAgent,
  waitForReplica,
}) => {
  const agent = seedAgent({ fullName: "Sam Suspended" });
  await waitForReplica();
  const page = await memberPage(agent);
  const cookiesBefore = await page.context().cookies();

  // As staff in the sheet.
  updateAgentRow(agent.id, { status: "suspended" });
  await waitForReplica();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Messages" }).click();
  await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fmessages$/);
  await expect(page.getByRole("status").filter({ hasText: LOGIN_MESSAGES.suspended })).toBeVisible();
  await expect(page.getByText("Please login to read and send messages")).toHaveCount(0);

  // Staff restore the agent: the cookie from before the suspension no longer logs anyone in.
  updateAgentRow(agent.id, { status: "approved" });
  await waitForReplica();
  const copy = await browser.newContext({ javaScriptEnabled });
  try {
    await copy.addCookies(cookiesBefore);
    const again = await copy.newPage();
    await again.goto("/member-dashboard");
    await expect(again).toHaveURL(/\/member-login\?redirectTo=%2Fmember-dashboard$/);
    await expect(again.getByText("Please login to view your dashboard")).toBeVisible();
    await expect(again.getByText(LOGIN_MESSAGES.suspended)).toHaveCount(0);
  } finally {
    await copy.close();
  }
});
