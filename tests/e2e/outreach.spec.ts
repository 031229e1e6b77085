import { deadlineLabel } from "../../app/domain/invitations";
import { expect, test } from "./fixtures";
import { updateAgentRow } from "./support/agents";
import { agentRow, fillProfile, reachProfileForm, uniqueEmail } from "./support/registration";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";
import { lookAtEachWidth } from "./support/widths";

const PASSWORD = "Red-River-2025!";

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

test.describe("inviting an outside agent to a request", () => {
  test("a poster invites an agent nobody on the network is; once they register and staff approve them, their dashboard lists the request with a fresh Respond by", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
    outbox,
  }, testInfo) => {
    const poster = seedAgent({ fullName: "Maria Delgado" });
    // Its Respond by passed while the agent waited for approval: theirs is a fresh one.
    const request = testRequest(poster, {
      title: `Ranch buyer ${uniqueToken()}`,
      location: "Boise City",
      state: "OK",
      respondBy: new Date(Date.now() - 60 * 60 * 1000).toISOString(),
    });
    seedRequests([request]);
    await waitForReplica();
    await login(poster, { then: `/referral-requests/${request.id}` });
    await page
      .getByRole("region", { name: "Know an agent in Boise City, OK?" })
      .getByRole("link", { name: "Invite an agent who is not a member" })
      .click();
    const agentEmail = uniqueEmail("outside", testInfo.project.name);
    await page.getByLabel("Name").fill("Sam Ortiz");
    await page.getByLabel("Email").fill(agentEmail);
    await page.getByRole("button", { name: "Check and continue" }).click();
    await expect(page).toHaveURL(new RegExp(`/referral-requests/${request.id}$`));

    const mail = await outbox.waitFor((each) => each.to === agentEmail);
    const link = new URL(/(http:\/\/\S+\/register\?invitation=\S+)/.exec(mail.text)![1]!);
    await page.context().clearCookies();
    await reachProfileForm(
      page,
      { fullName: "Sam Ortiz", email: agentEmail, phone: "580.555.0100", state: "OK", city: "Boise City" },
      link.pathname + link.search,
    );
    await fillProfile(page, PASSWORD);
    await page.getByRole("button", { name: "Create Agent Profile" }).click();
    await expect(page).toHaveURL(/\/welcome$/);

    // Staff approve him in the sheet; the approval is noticed after the next store refresh.
    updateAgentRow(agentRow(agentEmail)!.agent.id, { status: "approved" });
    await outbox.waitFor((each) => each.to === agentEmail && each.subject.startsWith("Maria Delgado invites you to respond"));
    await login({ email: agentEmail }, { password: PASSWORD });
    const card = page.getByRole("region", { name: "Invited to respond" });
    await expect(card.getByRole("link", { name: request.title, exact: true })).toBeVisible();
    await expect(card.getByText(/Respond by/).first()).toBeVisible();
    await expect(card).not.toContainText(deadlineLabel(request.respondBy!));
    await lookAtEachWidth(page, testInfo, { shot: "outside-agent-invited", withoutScriptsToo: true });
  });
});
