import { randomUUID } from "node:crypto";
import { agentRecord } from "../support/records";
import type { Page } from "@playwright/test";
import { agentIdFromEmail } from "../../app/domain/agent-id";
import { FOUNDER_CAP } from "../../app/domain/product";
import type { Agent } from "../../app/domain/workbook/tabs";
import { seedAgents } from "./support/agents";
import { startOwnServer } from "./support/own-server";
import { fillQuickRegistration, reachProfileForm, uniqueEmail } from "./support/registration";
import { seedRequests, testRequest } from "./support/requests";
import { expect, test } from "./fixtures";
import { screenshotForPeople } from "./support/screenshots";

/** What a new member tripped over, each checked as they would meet it. */

function founderRow(index: number, status: Agent["status"]): Agent {
  const id = randomUUID();
  return agentRecord({
    id,
    fullName: `Founder ${index}`,
    email: `founder-${index}-${id.slice(0, 6)}@example.com`,
    membershipType: "founder",
    status,
  });
}

test.describe("the founder offer", () => {
  test("a rejected applicant gives the spot back; with every spot held, each screen offers the member access", async ({
    page,
    waitForReplica,
  }, testInfo) => {
    test.setTimeout(90_000);
    // Its own server: taking every founder spot would change the offer the other tests see.
    const server = await startOwnServer();
    try {
      const held = Array.from({ length: FOUNDER_CAP - 2 }, (_, index) => founderRow(index, index % 3 === 0 ? "pending" : "approved"));
      const rejected = [founderRow(900, "rejected"), founderRow(901, "rejected")];
      const others = [
        agentRecord({ id: randomUUID(), fullName: "Vic Vip", email: `vip-${randomUUID()}@example.com`, membershipType: "vip" }),
      ];
      seedAgents([...held, ...rejected, ...others], server.dataDir);
      await waitForReplica(server.baseUrl);

      await page.goto(`${server.baseUrl}/`);
      await expect(page.getByTestId("founder-spots")).toHaveText(/^2 of 100 founder spots left/);
      await expect(page.getByRole("link", { name: "Claim Your FREE Founder Access" })).toBeVisible();

      seedAgents([founderRow(100, "pending"), founderRow(101, "approved")], server.dataDir);
      await waitForReplica(server.baseUrl);

      await page.goto(`${server.baseUrl}/`);
      await expect(page.getByTestId("founder-spots")).toHaveText(/^0 of 100 founder spots left/);
      const card = page.getByRole("region", { name: "Founder Access" });
      await expect(card).toContainText("The founder offer is closed");
      await expect(card).toContainText("Closed");
      await expect(card).not.toContainText("Limited");
      await expect(page.getByRole("link", { name: "Claim Your FREE Founder Access" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Join FREE Today" }).first()).toHaveAttribute("href", "/register");
      await expect(page.getByRole("heading", { name: "FREE Founder Access" })).toHaveCount(0);
      await screenshotForPeople(page, testInfo, "founder-closed-home");

      await page.goto(`${server.baseUrl}/member-login`);
      await expect(page.getByRole("main").getByRole("link", { name: "Join FREE", exact: true })).toBeVisible();
      await expect(page.getByText("Founder Access")).toHaveCount(0);

      await page.goto(`${server.baseUrl}/register`);
      await expect(page.getByTestId("founder-badge")).toHaveText("Membership: FREE");
      await expect(page.getByText(/founder access/i)).toHaveCount(0);
      await fillQuickRegistration(page, {
        fullName: "Nora Newcomer",
        email: uniqueEmail("late", testInfo.project.name),
        phone: "(214) 555-0111",
        state: "TX",
        city: "Dallas",
      });
      await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
      await expect(page).toHaveURL(/\/payment$/);
      await expect(page.getByRole("heading", { name: "FREE Member Access" })).toBeVisible();
      await expect(page.getByText(/founder/i)).toHaveCount(0);
    } finally {
      server.stop();
    }
  });
});

test.describe("members meeting each other", () => {
  let me: Agent;
  let other: Agent;
  test.beforeEach(async ({ seedAgent, waitForReplica, login }) => {
    const token = randomUUID().slice(0, 6);
    me = seedAgent({ fullName: `Mona Newmember${token}`, membershipType: "founder" });
    other = seedAgent({ fullName: `Oscar Othermember${token}`, membershipType: "founder" });
    await waitForReplica();
    await login(me);
  });

  test("the product's message link with the recipient's e-mail opens the conversation at the canonical id", async ({ page }) => {
    const response = await page.goto(`/messages?to=${encodeURIComponent(other.email)}`);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(`/messages?to=${agentIdFromEmail(other.email)}`);
    await expect(page.getByRole("main").getByText(other.fullName).first()).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  });

  test("no Message button to yourself on your directory card or profile", async ({ page }) => {
    await page.goto(`/directory?q=${encodeURIComponent(me.fullName)}`);
    const mine = page.getByRole("article", { name: me.fullName });
    await expect(mine.getByRole("link", { name: "View Profile of" + " " + me.fullName })).toBeVisible();
    await expect(mine.getByRole("link", { name: /^Message/ })).toHaveCount(0);
    await expect(mine.getByRole("link", { name: "Edit Profile" })).toHaveAttribute("href", "/edit-profile");

    await page.goto(`/directory?q=${encodeURIComponent(other.fullName)}`);
    await expect(
      page.getByRole("article", { name: other.fullName }).getByRole("link", { name: `Message ${other.fullName}` }),
    ).toBeVisible();

    await page.goto(`/agent/${agentIdFromEmail(me.email)}`);
    await expect(page.getByRole("heading", { name: me.fullName })).toBeVisible();
    await expect(page.getByRole("link", { name: "Send Message" })).toHaveCount(0);
    await expect(page.getByRole("main").getByRole("link", { name: "Edit Profile" })).toBeVisible();
    await page.goto(`/agent/${agentIdFromEmail(other.email)}`);
    await expect(page.getByRole("link", { name: "Send Message" })).toBeVisible();
  });

  test("one membership badge on a profile", async ({ page }) => {
    await page.goto(`/agent/${agentIdFromEmail(other.email)}`);
    const header = page.getByRole("main").locator("header");
    await expect(header.getByText("FOUNDER", { exact: true })).toHaveCount(1);
    await expect(header.getByText("Founding Member")).toHaveCount(0);
  });
});

test("member-directory cards name a membership once", async ({ page, seedAgent, waitForReplica, login }) => {
  const token = `zq${randomUUID().replace(/-/g, "").slice(0, 8)}`;
  const viewer = seedAgent({ fullName: "Vera Viewer" });
  const founder = seedAgent({ fullName: "Fern Founder", city: `Town${token}`, membershipType: "founder" });
  await waitForReplica();
  await login(viewer, { then: `/member-directory?city=Town${token}` });
  const card = page.getByRole("article", { name: founder.fullName });
  await expect(card.getByText("FOUNDER", { exact: true })).toHaveCount(1);
  await expect(card.getByText("Founding Member")).toHaveCount(0);
});

test("both password fields left empty: one message, beside the password", async ({ page }, testInfo) => {
  await reachProfileForm(page, {
    fullName: "Pat Password",
    email: uniqueEmail("pw", testInfo.project.name),
    phone: "(214) 555-0112",
    state: "TX",
    city: "Dallas",
  });
  await page.getByRole("button", { name: "Create Agent Profile" }).click();
  await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();
  await expect(page.getByText("Passwords do not match")).toHaveCount(0);
  await expect(page.getByLabel("Confirm Password")).not.toHaveAttribute("aria-invalid", "true");
});

test("an applicant still under review who registers again is told so and pointed to support", async ({
  page,
  waitForReplica,
}, testInfo) => {
  const email = uniqueEmail("pending", testInfo.project.name);
  seedAgents([agentRecord({ id: randomUUID(), fullName: "Penny Pending", email, status: "pending" })]);
  await waitForReplica();
  await page.goto("/register");
  await fillQuickRegistration(page, { fullName: "Penny Pending", email, phone: "(214) 555-0113", state: "TX", city: "Dallas" });
  await page.getByRole("button", { name: "Continue to Profile Setup" }).click();
  await expect(page.getByText("Your application with this email is already under review.")).toBeVisible();
  await expect(page.getByText("Please log in instead")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Go to Member Login" })).toHaveCount(0);
  await expect(page.getByRole("main").getByRole("link", { name: "Contact Support" }).first()).toHaveAttribute("href", "/contact");
  await expect(page.getByLabel("Email Address")).toHaveValue(email);
});

test("the login page says why a visitor was sent there, then returns them", async ({ page, seedAgent, waitForReplica }) => {
  const poster = seedAgent({ fullName: "Rita Requester" });
  const member = seedAgent({ fullName: "Leo Loginreason" });
  const request = testRequest(poster);
  seedRequests([request]);
  await waitForReplica();

  const reasons: Array<[string, string]> = [
    ["/post-request", "Please login to post a referral request"],
    [`/referral-requests/${request.id}/respond`, "Please login to respond to requests"],
    ["/messages", "Please login to read and send messages"],
    ["/member-directory", "Please login to view the member directory"],
  ];
  for (const [path, reason] of reasons) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/member-login\?redirectTo=/);
    await expect(page.getByRole("status").filter({ hasText: reason })).toBeVisible();
  }
  await page.goto("/member-login");
  await expect(page.getByText(/Please login to/)).toHaveCount(0);

  await page.goto("/post-request");
  await page.getByLabel("Email Address").fill(member.email);
  await page.getByLabel("Password").fill("referral-e2e-password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/post-request$/);
});

async function firstCardTop(page: Page): Promise<number> {
  const box = await page.locator("#live-requests article").first().boundingBox();
  return box?.y ?? Number.POSITIVE_INFINITY;
}

test.describe("the dashboard on a phone", () => {
  test("filters fold away so the first request shows on the first screen; from 768 px they are open", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const member = seedAgent({ fullName: "Phil Phone" });
    const poster = seedAgent({ fullName: "Polly Poster" });
    seedRequests([testRequest(poster, { hoursAgo: 1 })]);
    await waitForReplica();
    await page.setViewportSize({ width: 390, height: 844 });
    await login(member);
    await page.getByRole("heading", { name: "Live Agent Requests" }).evaluate((heading) => heading.scrollIntoView({ block: "start" }));
    await expect(page.getByLabel("Type", { exact: true })).toBeHidden();
    expect(await firstCardTop(page)).toBeLessThan(844);
    await screenshotForPeople(page, testInfo, "dashboard-requests-390");

    await page.getByText("Filters", { exact: true }).click();
    await expect(page.getByLabel("Type", { exact: true })).toBeVisible();
    await page.getByLabel("State", { exact: true }).selectOption("OK");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/state=OK/);
    // A filter in use keeps them open, so the member sees what narrows the list.
    await expect(page.getByLabel("Type", { exact: true })).toBeVisible();
    await expect(page.getByText("Filters (1 in use)")).toBeVisible();

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/member-dashboard");
    await expect(page.getByLabel("Type", { exact: true })).toBeVisible();
    await expect(page.getByText("Filters", { exact: true })).toBeHidden();
  });
});

test("the directory's search placeholder shows whole at 1280 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/directory");
  const cut = await page.getByLabel("Search", { exact: true }).evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(input.placeholder).width - room;
  });
  expect(cut).toBeLessThanOrEqual(0);
});
