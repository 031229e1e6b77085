import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { seedRequests, storedTileCounts, testRequest, uniqueToken } from "./support/requests";
import { lookAtEachWidth } from "./support/widths";

function liveSection(page: Page) {
  return page.getByRole("region", { name: /Live Agent Requests/ });
}

function liveTitles(page: Page) {
  return liveSection(page).getByRole("article").getByRole("heading", { level: 3 });
}

async function tileCount(page: Page, title: string): Promise<number> {
  const tile = page
    .getByRole("region", { name: "Network at a glance" })
    .locator("div.card")
    .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  return Number(await tile.locator("span.text-3xl").innerText());
}

test.describe("member dashboard", () => {
  test("tiles show the live counts by type and the approved agents, with Post New and directory links", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const member = seedAgent({ fullName: "Tilly Tiles" });
    const other = seedAgent({ fullName: "Otto Other" });
    seedRequests([
      testRequest(other, { requestType: "referral" }),
      testRequest(other, { requestType: "listing", clientType: "" }),
      testRequest(other, { requestType: "buyer", clientType: "" }),
      testRequest(other, { requestType: "buyer", clientType: "", status: "deleted" }),
    ]);
    await waitForReplica();
    await login(member);

    // Other tests add rows at the same time: the page and the file must agree at some reload.
    await expect
      .poll(async () => {
        await page.reload();
        const shown = {
          referral: await tileCount(page, "Referral Requests"),
          listing: await tileCount(page, "Listings - Need Buyers"),
          buyer: await tileCount(page, "Buyer Representation"),
          agents: await tileCount(page, "Member Database"),
        };
        return JSON.stringify(shown) === JSON.stringify(storedTileCounts());
      })
      .toBe(true);
    await expect(page.getByRole("link", { name: "Post New: Listings - Need Buyers" })).toHaveAttribute(
      "href",
      "/post-request?type=listing",
    );
    await expect(page.getByRole("link", { name: "Post New: Buyer Representation" })).toHaveAttribute("href", "/post-request?type=buyer");
    await expect(page.getByRole("link", { name: "Browse Directory" })).toHaveAttribute("href", "/directory");
    // The accounts part of the page is still there.
    await expect(page.getByRole("heading", { name: "Your Profile" })).toBeVisible();
  });

  test("quick chips and filters narrow the live requests; cards show badges, poster and actions", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }) => {
    const member = seedAgent({ fullName: "Chip Chooser", state: "TX" });
    const other = seedAgent({ fullName: "Olga Other" });
    const token = uniqueToken();
    seedRequests([
      testRequest(other, { title: `${token} ok referral`, state: "OK", hoursAgo: 30 }),
      testRequest(other, {
        title: `${token} tx listing`,
        requestType: "listing",
        clientType: "",
        state: "TX",
        location: "Plano",
        hoursAgo: 2,
      }),
      testRequest(other, {
        title: `${token} tx urgent buyer`,
        requestType: "buyer",
        clientType: "",
        state: "TX",
        urgent: true,
        agentName: "",
        hoursAgo: 40,
      }),
      testRequest(member, { title: `${token} my own` }),
    ]);
    await waitForReplica();
    await login(member, { then: `/member-dashboard?q=${token}` });

    const section = liveSection(page);
    await expect(section.getByText("Live", { exact: true })).toBeVisible();
    await expect(liveTitles(page)).toHaveText([`${token} tx listing`, `${token} ok referral`, `${token} tx urgent buyer`]);
    const listing = section.getByRole("article").filter({ hasText: "tx listing" });
    await expect(listing.getByText("NEW", { exact: true })).toBeVisible();
    await expect(listing.getByText("Olga Other")).toBeVisible();
    await expect(listing.getByText("Plano, TX")).toBeVisible();
    await expect(listing.getByText("2 hours ago")).toBeVisible();
    await expect(listing.getByText("0 responses")).toBeVisible();
    await expect(listing.getByRole("link", { name: "Message Olga Other" })).toHaveAttribute(
      "href",
      `/messages?to=${other.email.replace(/[@.]/g, "_")}`,
    );
    await expect(listing.getByRole("link", { name: /^View Details/ })).toHaveAttribute("href", /\/referral-requests\/[0-9a-f-]+$/);
    const urgent = section.getByRole("article").filter({ hasText: "urgent buyer" });
    await expect(urgent.getByText("URGENT", { exact: true })).toBeVisible();
    await expect(urgent.getByText("NEW", { exact: true })).toHaveCount(0);
    await expect(urgent.getByText("Anonymous Agent")).toBeVisible();

    const chip = (name: string | RegExp) => page.getByRole("navigation", { name: "Quick filters" }).getByRole("link", { name });
    await chip("Referrals").click();
    await expect(liveTitles(page)).toHaveText([`${token} ok referral`]);
    await chip("Need Buyers").click();
    await expect(liveTitles(page)).toHaveText([`${token} tx listing`]);
    await chip(/My Market/).click();
    await expect(chip(/My Market/)).toHaveText("My Market (TX)");
    await expect(liveTitles(page)).toHaveText([`${token} tx listing`, `${token} tx urgent buyer`]);
    await chip("Urgent").click();
    await expect(liveTitles(page)).toHaveText([`${token} tx urgent buyer`]);
    await expect(chip("Urgent")).toHaveAttribute("aria-current", "true");
    await chip("All Live").click();
    await expect(liveTitles(page)).toHaveCount(3);

    await section.getByLabel("State").selectOption("OK");
    await section.getByRole("button", { name: "Apply" }).click();
    await expect(liveTitles(page)).toHaveText([`${token} ok referral`]);
    await section.getByRole("link", { name: "Clear Filters" }).click();
    await expect(page).toHaveURL(/\/member-dashboard$/);
    await expect(section.getByRole("searchbox", { name: "Search" })).toHaveValue("");
  });

  test("Interested and Save are kept across reloads; Save toggles off", async ({ page, seedAgent, waitForReplica, login }) => {
    const member = seedAgent({ fullName: "Mark Marker" });
    const other = seedAgent({ fullName: "Pia Poster" });
    const token = uniqueToken();
    seedRequests([testRequest(other, { title: `${token} markable` })]);
    await waitForReplica();
    await login(member, { then: `/member-dashboard?q=${token}` });

    const card = liveSection(page).getByRole("article").filter({ hasText: token });
    // With JavaScript the button shows its new state at once, before the server answers: a
    // reload must wait for the answer, or it cancels the mark (as it would a person's).
    const clickAndStore = (name: RegExp) =>
      Promise.all([
        page.waitForResponse(
          (response) => response.request().method() === "POST" && /\/mark(\.data)?$/.test(new URL(response.url()).pathname),
        ),
        card.getByRole("button", { name }).click(),
      ]);
    await expect(card.getByRole("button", { name: /^Interested/ })).toBeEnabled();
    await clickAndStore(/^Interested/);
    await expect(card.getByRole("button", { name: /^Interested/ })).toBeDisabled();
    await clickAndStore(/^Save/);
    await expect(card.getByRole("button", { name: /^Saved/ })).toHaveAttribute("aria-pressed", "true");
    await expect(page).toHaveURL(new RegExp(`q=${token}`));

    await page.reload();
    await expect(card.getByRole("button", { name: /^Interested/ })).toBeDisabled();
    await expect(card.getByRole("button", { name: /^Saved/ })).toBeVisible();
    await clickAndStore(/^Saved/);
    await expect(card.getByRole("button", { name: /^Save:/ })).toHaveAttribute("aria-pressed", "false");
    await page.reload();
    await expect(card.getByRole("button", { name: /^Save:/ })).toBeVisible();
    await expect(card.getByRole("button", { name: /^Interested/ })).toBeDisabled();
  });

  test("shows at most 8 requests and a View All link to the rest", async ({ page, seedAgent, waitForReplica, login }) => {
    const member = seedAgent({ fullName: "Vera Viewall" });
    const other = seedAgent({ fullName: "Nina Nine" });
    const token = uniqueToken();
    seedRequests(Array.from({ length: 9 }, (_, i) => testRequest(other, { title: `${token} number ${i + 1}`, hoursAgo: i + 1 })));
    await waitForReplica();
    await login(member, { then: `/member-dashboard?q=${token}` });

    await expect(liveTitles(page)).toHaveCount(8);
    await expect(liveTitles(page).first()).toHaveText(`${token} number 1`);
    await page.getByRole("link", { name: "View All 9 Live Requests" }).click();
    await expect(page).toHaveURL(new RegExp(`/referral-requests\\?q=${token}$`));
    await expect(page.getByRole("article")).toHaveCount(9);
  });

  // Without JavaScript the dashboard is complete on each load, so this runs in the js-on project only.
  test(
    "with JavaScript, new requests are announced and shown on request",
    { tag: "@needs-js" },
    async ({ page, seedAgent, waitForReplica, login }) => {
      const member = seedAgent({ fullName: "Ned Newcomer" });
      const other = seedAgent({ fullName: "Ava Arrival" });
      const token = uniqueToken();
      seedRequests([testRequest(other, { title: `${token} first` })]);
      await waitForReplica();
      await page.clock.install();
      await login(member, { then: `/member-dashboard?q=${token}` });
      await expect(liveTitles(page)).toHaveText([`${token} first`]);
      // Once React runs, the mark forms drop their no-JavaScript return address: the poll is set up by then.
      await expect(page.locator('input[name="redirectTo"]')).toHaveCount(0);

      seedRequests([
        testRequest(other, { title: `${token} second`, hoursAgo: 0 }),
        testRequest(other, { title: `${token} third`, hoursAgo: 0 }),
      ]);
      await waitForReplica();
      await page.clock.runFor(30_000);
      await expect(page.getByText("2 new requests available!")).toBeVisible();
      await page.getByRole("button", { name: "View New Requests" }).click();
      await expect(liveTitles(page)).toHaveCount(3);
      await expect(page.getByText("new requests available!")).toHaveCount(0);

      // Focus after a quiet spell checks again without waiting for the next 30 s.
      seedRequests([testRequest(other, { title: `${token} fourth`, hoursAgo: 0 })]);
      await waitForReplica();
      await page.clock.runFor(11_000);
      await page.evaluate(() => window.dispatchEvent(new Event("focus")));
      await expect(page.getByText("1 new request available!")).toBeVisible();
    },
  );

  test("looked at on a phone and a desktop", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
    const member = seedAgent({ fullName: "Dana Dashboard", state: "TX" });
    const other = seedAgent({ fullName: "Riley Referrer" });
    const token = uniqueToken();
    seedRequests([
      testRequest(other, {
        title: `Pre-approved buyer wants acreage ${token}`,
        requestType: "buyer",
        clientType: "",
        specialty: "Farm and Ranch",
        location: "Stillwater",
        hoursAgo: 3,
        urgent: true,
      }),
      testRequest(other, {
        title: `Lake house listing needs buyers ${token}`,
        requestType: "listing",
        clientType: "",
        state: "TX",
        location: "Grapevine",
        specialty: "Luxury",
        priceRange: "$1M - $2M",
        hoursAgo: 50,
        responses: 3,
      }),
    ]);
    await waitForReplica();
    await page.emulateMedia({ reducedMotion: "reduce" });
    await login(member, { then: `/member-dashboard?q=${token}` });
    await expect(liveTitles(page)).toHaveCount(2);
    await lookAtEachWidth(page, testInfo, { shot: "member-dashboard" });
  });
});
