import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { seedRequests, testRequest, uniqueToken } from "./support/requests";
import { screenshotForPeople } from "./support/screenshots";
import { axeViolations } from "./support/test";

/** The success line a page shows after an action, announced as a status. */
function notice(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text });
}

/** Waits until the page at its address has rendered: its main heading is there. */
async function loaded(page: Page) {
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
}

/**
 * The notice shows on the page the action led to, the address carries no trace of it, it is
 * gone when the page is loaded again, and another member's browser opening the same address
 * never sees it.
 */
async function expectShownOnceToTheActor(page: Page, text: string, otherMembersPage: Page) {
  await expect(notice(page, text)).toBeVisible();
  expect(new URL(page.url()).search, "the address names no notice").not.toContain("notice");
  // Axe on this very page, not the run's earlier check of its kind of page (which had no notice).
  expect(await axeViolations(page), `accessibility violations on ${page.url()} with its notice`).toEqual([]);
  const address = page.url();

  await otherMembersPage.goto(address);
  await loaded(otherMembersPage);
  await expect(notice(otherMembersPage, text), "a shared address shows no notice").toHaveCount(0);

  await page.reload();
  await loaded(page);
  await expect(notice(page, text), "the notice is gone after a reload").toHaveCount(0);
}

test.describe("one-time success notices", () => {
  // Two members' browsers, each logging in first.
  test.describe.configure({ timeout: 60_000 });

  test("posting a request: the poster sees the notice once, and the shared address shows none", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
    memberPage,
  }, testInfo) => {
    const poster = seedAgent({ fullName: "Nora Notice" });
    const viewer = seedAgent({ fullName: "Vic Viewer" });
    await waitForReplica();
    await login(poster, { then: "/post-request?type=referral" });
    const title = `Flash ${uniqueToken()}`;
    await page.getByLabel("Request Title").fill(title);
    await page.getByLabel("City/Area").fill("Tulsa");
    await page.getByLabel("State", { exact: true }).selectOption("OK");
    await page.getByLabel("Specialty").selectOption("Land");
    await page.getByLabel("Price Range").selectOption("Under $200k");
    await page.getByLabel("Description").fill("Forty acres with a pond.");
    await page.getByRole("button", { name: "Post Referral Request" }).click();
    await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();

    await expect(notice(page, "Referral request posted successfully!")).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshotForPeople(page, testInfo, `request-posted-notice-${width}`, { withoutScriptsToo: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectShownOnceToTheActor(page, "Referral request posted successfully!", await memberPage(viewer));
  });

  test("deleting a request: the owner sees the notice once on My Requests, and the shared address shows none", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
    memberPage,
  }) => {
    const owner = seedAgent({ fullName: "Della Deleting" });
    const other = seedAgent({ fullName: "Otto Other" });
    const request = testRequest(owner, { title: `${uniqueToken()} to delete` });
    seedRequests([request]);
    await waitForReplica();
    await login(owner, { then: `/referral-requests/${request.id}/delete` });
    await page.getByRole("button", { name: "Delete Request" }).click();
    await expect(page.getByRole("heading", { name: "Agent Requests" })).toBeVisible();

    await expectShownOnceToTheActor(page, "Request deleted successfully!", await memberPage(other));
  });

  test("responding to a request: the responder sees the notice once, and the shared address shows none", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
    memberPage,
  }) => {
    const poster = seedAgent({ fullName: "Polly Poster" });
    const responder = seedAgent({ fullName: "Rory Responder" });
    const request = testRequest(poster, { title: `${uniqueToken()} to answer` });
    seedRequests([request]);
    await waitForReplica();
    await login(responder, { then: `/referral-requests/${request.id}/respond` });
    await page.getByLabel("Your Message").fill(`I know Tulsa well ${randomUUID()}`);
    await page.getByRole("button", { name: "Send Response" }).click();
    await expect(page.getByRole("heading", { name: "Agent Requests" })).toBeVisible();

    await expectShownOnceToTheActor(page, "Response sent successfully!", await memberPage(poster));
  });

  test("a notice stays on screen while live updates reload the page's data, and is gone on the next load @needs-js", async ({
    seedAgent,
    waitForReplica,
    memberPage,
  }) => {
    const tag = randomUUID().slice(0, 8);
    const ann = seedAgent({ fullName: `Ann Flash${tag}` });
    const bob = seedAgent({ fullName: `Bob Flash${tag}` });
    await waitForReplica();
    const [annPage, bobPage] = await Promise.all([memberPage(ann), memberPage(bob)]);
    const text = "Your message was sent. Some invisible control characters were removed from it.";
    const annThread = annPage.getByRole("log", { name: "Messages" });

    await annPage.goto(`/messages?to=${bob.id}`);
    // The page's load after Send answers slowly, as on a busy server: the live update of Ann's own
    // message arrives while it is under way, and must not start a second load that finds the notice taken.
    let slowed = false;
    await annPage.route(/\/messages\.data/, async (route) => {
      if (slowed || route.request().method() !== "GET") return route.continue();
      slowed = true;
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.fulfill({ response }).catch(() => undefined);
    });
    await annPage.getByRole("textbox", { name: "Message" }).fill("Bell\u0007 rung");
    await annPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(notice(annPage, text)).toBeVisible();

    // Bob's answer reaches Ann's open thread live, which loads the page's data again.
    await bobPage.goto(annPage.url());
    await bobPage.getByRole("textbox", { name: "Message" }).fill(`Heard it ${tag}`);
    await bobPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(annThread.getByText(`Heard it ${tag}`)).toBeVisible({ timeout: 5_000 });
    await expect(notice(annPage, text)).toBeVisible();

    await annPage.reload();
    await expect(annThread.getByText(`Heard it ${tag}`)).toBeVisible();
    await expect(notice(annPage, text)).toHaveCount(0);
  });
});
