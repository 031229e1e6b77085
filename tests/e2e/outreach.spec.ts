import { expect, test } from "./fixtures";
import { lookAtEachWidth } from "./support/widths";

test.describe("inviting a colleague to join", () => {
  test("a member invites colleagues from the dashboard: a bad address is refused beside it with the input kept, then one mail each and the list", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
    outbox,
  }, testInfo) => {
    const member = seedAgent({ fullName: "Maria Delgado" });
    await waitForReplica();
    await login(member, { then: "/member-dashboard" });
    await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Invite a Colleague" }).click();
    await expect(page.getByRole("heading", { name: "Invite a Colleague" })).toBeVisible();

    const colleague = `colleague-${testInfo.project.name}-${Date.now()}@example.com`;
    const first = page.getByRole("group", { name: "Colleague 1" });
    await first.getByLabel("Name").fill("Sam Ortiz");
    await first.getByLabel("Email").fill("sam@example");
    await page.getByLabel("A personal line").fill("You would love the Big Lake requests.");
    await page.getByRole("button", { name: "Send invitations" }).click();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(first.getByLabel("Name")).toHaveValue("Sam Ortiz");
    await expect(page.getByLabel("A personal line")).toHaveValue("You would love the Big Lake requests.");
    await lookAtEachWidth(page, testInfo, { shot: "invite-refused", withoutScriptsToo: true });

    await first.getByLabel("Email").fill(colleague);
    await page.getByRole("button", { name: "Send invitations" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Invitations sent." })).toBeVisible();
    await expect(page.getByText(colleague)).toBeVisible();
    await expect(page.getByTestId("outreach-outcome").first()).toHaveText("Sent");
    const mail = await outbox.waitFor((each) => each.to === colleague);
    expect(mail.subject).toBe("Maria Delgado invites you to Red River Referrals");
    await lookAtEachWidth(page, testInfo, { shot: "invite-sent", withoutScriptsToo: true });

    // The mail's link opens registration with the name and e-mail filled in.
    const link = /(http:\/\/\S+\/register\?invitation=\S+)/.exec(mail.text)![1]!;
    await page.context().clearCookies();
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByText("Maria Delgado invited you")).toBeVisible();
    await expect(page.getByLabel("Full Name")).toHaveValue("Sam Ortiz");
    await expect(page.getByLabel("Email Address")).toHaveValue(colleague);
    await lookAtEachWidth(page, testInfo, { shot: "invite-register" });
  });
});
