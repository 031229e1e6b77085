import type { Specialty } from "../../app/domain/enums";
import { REQUESTS_TAB } from "../../app/domain/workbook/tabs";
import { expect, test } from "./fixtures";
import { uniqueToken } from "./support/requests";
import { screenshotForPeople } from "./support/screenshots";
import { updateRow } from "./support/store-file";

/**
 * Each project seeds agents of a specialty no other test uses, so the two runs (and other
 * tests on the shared server) never appear in each other's best-fit lists.
 */
const SPECIALTY: Record<string, Specialty> = { "js-on": "Barndominium", "js-off": "Recreational (RV and Glamping)" };

test("a poster invites best-fit agents, one answers Not a fit, and the next five come once Respond by passes", async ({
  page,
  seedAgent,
  waitForReplica,
  login,
  memberPage,
  outbox,
}, testInfo) => {
  const token = uniqueToken();
  const specialty = SPECIALTY[testInfo.project.name] ?? "Barndominium";
  const poster = seedAgent({ fullName: `Paula ${token}`, state: "TX", city: "Dallas" });
  // Ten agents who serve Ardmore with the specialty, active today: every version of the best-fit list finds them.
  const invitees = Array.from({ length: 10 }, (_, index) =>
    seedAgent({
      fullName: `Invitee${index} ${token}`,
      state: "OK",
      city: "Ardmore",
      specialties: [specialty],
      placesServed: ["Ardmore, OK"],
      createdAt: new Date().toISOString(),
    }),
  );
  await waitForReplica();

  // Post a request with Respond by on a phone.
  await page.setViewportSize({ width: 390, height: 900 });
  await login(poster, { then: "/post-request?type=referral" });
  const title = `Lake cabin buyers ${token}`;
  await page.getByLabel("Request Title").fill(title);
  await page.getByLabel("City/Area").fill("Ardmore");
  await page.getByLabel("State", { exact: true }).selectOption("OK");
  await page.getByLabel("Specialty").selectOption(specialty);
  await page.getByLabel("Price Range").selectOption("Under $200k");
  await page.getByLabel("Description").fill("Retirees want a cabin near Lake Murray.");
  await page.getByLabel("Respond by").fill("24");
  await page.getByRole("button", { name: "Post Referral Request" }).click();

  await expect(page.getByText("Referral request posted successfully!")).toBeVisible();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText("Respond by:")).toBeVisible();
  const requestId = new URL(page.url()).pathname.split("/")[2]!;
  const suggested = page.getByRole("list", { name: "Suggested agents" }).getByRole("listitem");
  await expect(suggested).toHaveCount(5);
  await expect(suggested.first()).toContainText(specialty);
  await screenshotForPeople(page, testInfo, "best-fit-agents-390", { fullPage: true });

  // Invite one, then the rest of the round, on a desktop.
  await page.setViewportSize({ width: 1280, height: 900 });
  const firstName = (await suggested.first().getByRole("link").textContent())!.trim();
  const declining = invitees.find((agent) => agent.fullName === firstName)!;
  await page.getByRole("button", { name: `Invite ${firstName}` }).click();
  await expect(page.getByText("Invitations sent.")).toBeVisible();
  const invited = page.getByRole("list", { name: "Invited agents" }).getByRole("listitem");
  await expect(invited).toHaveCount(1);
  await expect(invited.first()).toContainText("Invited");
  await page.getByRole("button", { name: "Invite all 4" }).click();
  await expect(invited).toHaveCount(5);
  await expect(page.getByRole("list", { name: "Suggested agents" })).toHaveCount(0);
  const mail = await outbox.waitFor((each) => each.to === declining.email && each.subject.includes(token));
  expect(mail.text).toContain(`/referral-requests/${requestId}`);

  // The invited agent answers Not a fit from the dashboard, on a phone.
  const agentPage = await memberPage(declining, { width: 390, height: 900 });
  const entry = agentPage.getByRole("region", { name: "Invited to respond" }).getByRole("listitem").filter({ hasText: title });
  await expect(entry).toContainText("Respond by");
  await expect(entry.getByRole("link", { name: `Respond to ${title}` })).toBeVisible();
  await entry.getByRole("link", { name: `Not a fit for ${title}` }).click();
  await agentPage.getByLabel("Reason").fill("I only work north of the Red River.");
  await agentPage.getByRole("button", { name: "Send Not a fit" }).click();
  await expect(agentPage).toHaveURL(/\/member-dashboard/);
  await expect(entry).toHaveCount(0);

  // The poster reads it; then the deadline passes with no response and the next five appear.
  await page.reload();
  const declined = invited.filter({ hasText: firstName });
  await expect(declined).toContainText("Not a fit");
  await expect(declined).toContainText("I only work north of the Red River.");
  // The deadline falls now: after every invitation so far, as if the 24 hours had gone by.
  expect(updateRow(REQUESTS_TAB, requestId, { respondBy: new Date().toISOString() })).toBe(1);
  await waitForReplica();
  await page.reload();
  await expect(page.getByText("The Respond by time passed with no response")).toBeVisible();
  await expect(suggested).toHaveCount(5);
  const invitedNames = await invited.getByRole("link").allTextContents();
  for (const name of await suggested.getByRole("link").allTextContents()) expect(invitedNames).not.toContain(name);
  await page.setViewportSize({ width: 390, height: 900 });
  await expect(page.getByRole("button", { name: "Invite all five" })).toBeVisible();
  await screenshotForPeople(page, testInfo, "best-fit-next-five-390", { fullPage: true });
});
