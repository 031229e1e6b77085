import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { seedRequests, storedRequest, testRequest, uniqueToken } from "./support/requests";
import { screenshotForPeople } from "./support/screenshots";
import { lookAtEachWidth } from "./support/widths";

const DAY_HOURS = 24;

function cards(page: Page) {
  return page.getByRole("article");
}

function cardTitles(page: Page) {
  return cards(page).getByRole("heading", { level: 3 });
}

test.describe("posting requests", () => {
  const kinds = [
    { choice: "Listings - Need Buyers", tag: "Listing", button: "Post Listing Request" },
    { choice: "Referral Requests", tag: "Referral", button: "Post Referral Request" },
    { choice: "Buyer Representation", tag: "Buyer Rep", button: "Post Buyer Rep Request" },
  ];

  test("posts a request of each type and finds it under My Requests with its tags", async ({ page, seedAgent, waitForReplica, login }) => {
    const poster = seedAgent({ fullName: "Paula Poster" });
    await waitForReplica();
    await login(poster, { then: "/post-request" });
    const token = uniqueToken();

    for (const kind of kinds) {
      await page.goto("/post-request");
      await page.getByRole("link", { name: kind.choice }).click();
      await expect(page.getByRole("heading", { name: kind.choice })).toBeVisible();
      const title = `${kind.tag} ${token} =SUM(A1) <b>x</b>`;
      await page.getByLabel("Request Title").fill(title);
      await page.getByLabel("City/Area").fill("Tulsa");
      await page.getByLabel("State", { exact: true }).selectOption("OK");
      await page.getByLabel("Specialty").selectOption("Land");
      await page.getByLabel("Price Range").selectOption("Under $200k");
      await expect(page.getByLabel("MLS Number")).toHaveCount(kind.tag === "Listing" ? 1 : 0);
      await expect(page.getByLabel("Client Type")).toHaveCount(kind.tag === "Referral" ? 1 : 0);
      if (kind.tag === "Listing") {
        await page.getByLabel("Listing Address").fill("12 Prairie Rd, Tulsa");
        await page.getByLabel("MLS Number").fill("MLS-778");
        await page.getByLabel("This request is urgent").check();
      }
      if (kind.tag === "Referral") await page.getByLabel("Client Type").selectOption("seller");
      await page.getByLabel("Timeline").selectOption("flexible");
      await page.getByLabel("Preferred Contact Method").selectOption("phone");
      await page.getByLabel("Description").fill("Forty acres with a pond.");
      await expect(page.getByText("visible to verified agents")).toBeVisible();
      await page.getByRole("button", { name: kind.button }).click();

      // The poster lands on the request's page, then finds it under My Requests.
      await expect(page.getByText("Referral request posted successfully!")).toBeVisible();
      await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
      await page.goto("/referral-requests?tab=mine");
      await expect(page.getByRole("link", { name: /My Requests/ })).toHaveAttribute("aria-current", "page");
      const card = cards(page).filter({ hasText: title });
      await expect(card.getByRole("heading", { name: title })).toBeVisible();
      const tags = ["Tulsa", "OK", "Land", "Under $200k", ...(kind.tag === "Referral" ? ["Seller"] : [])];
      await expect(card.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveText([kind.tag, ...tags]);
      await expect(card.getByText("0 responses")).toBeVisible();
      if (kind.tag === "Listing") {
        await expect(card.getByText("12 Prairie Rd, Tulsa")).toBeVisible();
        await expect(card.getByText("MLS-778")).toBeVisible();
        await expect(card.getByText("URGENT")).toBeVisible();
      }
    }
  });

  test("shows the product's messages beside the fields and keeps what was typed", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const poster = seedAgent({ fullName: "Errol Empty" });
    await waitForReplica();
    await login(poster, { then: "/post-request?type=referral" });
    await page.getByLabel("Request Title").fill("Kept title");
    await page.getByLabel("Description").fill("Kept description");
    await page.getByRole("button", { name: "Post Referral Request" }).click();

    await expect(page.getByText("City/Area is required")).toBeVisible();
    await expect(page.getByText("Please select a state")).toBeVisible();
    await expect(page.getByText("Please select a specialty")).toBeVisible();
    await expect(page.getByText("Please select a price range")).toBeVisible();
    await expect(page.getByLabel("City/Area")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Request Title")).toHaveValue("Kept title");
    await expect(page.getByLabel("Description")).toHaveValue("Kept description");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshotForPeople(page, testInfo, `post-request-errors-${width}`, { fullPage: true });
    }
  });

  test("sends a visitor to the login page and back", async ({ page }) => {
    await page.goto("/post-request?type=buyer");
    await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fpost-request%3Ftype%3Dbuyer/);
  });
});

test.describe("the requests page", () => {
  test("filters, sorts, searches ignoring case and clears", async ({ page, seedAgent, waitForReplica, login }) => {
    const owner = seedAgent({ fullName: "Olive Owner" });
    const viewer = seedAgent({ fullName: "Victor Viewer" });
    const token = uniqueToken();
    seedRequests([
      testRequest(owner, { title: `${token} alpha`, location: "Amarillo", state: "TX", clientType: "seller", hoursAgo: 1 }),
      testRequest(owner, {
        title: `${token} bravo`,
        requestType: "listing",
        location: "Broken Arrow",
        specialty: "Luxury",
        priceRange: "$1M - $2M",
        clientType: "",
        listingAddress: "9 Elm St",
        listingMLS: "BA-1",
        hoursAgo: 5,
      }),
      testRequest(owner, {
        title: `${token} charlie`,
        requestType: "buyer",
        location: "Canadian",
        state: "TX",
        specialty: "Land",
        priceRange: "Under $200k",
        clientType: "",
        hoursAgo: 3,
      }),
    ]);
    await waitForReplica();
    await login(viewer, { then: "/referral-requests" });

    await page.getByRole("searchbox", { name: "Search" }).fill(token.toUpperCase());
    await page.getByRole("button", { name: "Apply Filters" }).click();
    await expect(cardTitles(page)).toHaveText([`${token} alpha`, `${token} charlie`, `${token} bravo`]);

    const bravo = cards(page).filter({ hasText: `${token} bravo` });
    await expect(bravo.getByText("9 Elm St")).toBeVisible();
    await expect(bravo.getByText("BA-1")).toBeVisible();
    await expect(
      cards(page)
        .filter({ hasText: `${token} alpha` })
        .getByText("Client Type:"),
    ).toBeVisible();
    await expect(bravo.getByRole("link", { name: /^Respond/ })).toBeVisible();
    await expect(bravo.getByRole("link", { name: /^Edit/ })).toHaveCount(0);

    const names: Record<string, string> = {
      "Sort By": "sort",
      Type: "type",
      State: "state",
      Specialty: "specialty",
      "Price Range": "priceRange",
      "Client Type": "clientType",
    };
    const apply = async (label: string, value: string) => {
      await page.getByLabel(label, { exact: true }).selectOption(value);
      await page.getByRole("button", { name: "Apply Filters" }).click();
      // The form is rebuilt from the address once the list arrives: wait for it before the next choice.
      await expect.poll(() => new URL(page.url()).searchParams.get(names[label]!) ?? "").toBe(value);
    };
    await apply("Sort By", "location");
    await expect(cardTitles(page)).toHaveText([`${token} alpha`, `${token} bravo`, `${token} charlie`]);
    await apply("Sort By", "specialty");
    await expect(cardTitles(page)).toHaveText([`${token} charlie`, `${token} bravo`, `${token} alpha`]);
    await expect(page).toHaveURL(new RegExp(`q=${token.toUpperCase()}.*sort=specialty|sort=specialty.*q=${token.toUpperCase()}`));
    await apply("Type", "listing");
    await expect(cardTitles(page)).toHaveText([`${token} bravo`]);
    await apply("Type", "");
    await apply("State", "TX");
    await expect(cardTitles(page)).toHaveText([`${token} charlie`, `${token} alpha`]);
    await apply("Specialty", "Land");
    await expect(cardTitles(page)).toHaveText([`${token} charlie`]);
    await apply("Specialty", "");
    await apply("State", "");
    await apply("Price Range", "$1M - $2M");
    await expect(cardTitles(page)).toHaveText([`${token} bravo`]);
    await apply("Price Range", "");
    await apply("Client Type", "seller");
    await expect(cardTitles(page)).toHaveText([`${token} alpha`]);

    await page.getByRole("link", { name: "Clear All" }).click();
    await expect(page).toHaveURL(/\/referral-requests$/);
    await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("");
    await expect(page.getByLabel("Client Type", { exact: true })).toHaveValue("");

    await page.goto(`/referral-requests?q=${token}&type=buyer&state=OK`);
    await expect(page.getByRole("heading", { name: "No requests match your filters" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Post First Request" })).toHaveAttribute("href", "/post-request");
  });

  test("answers an unknown request with 404", async ({ page, seedAgent, waitForReplica, login }) => {
    const viewer = seedAgent({ fullName: "Nora Nobody" });
    await waitForReplica();
    await login(viewer);
    const response = await page.goto("/referral-requests/no-such-request");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Request not found" })).toBeVisible();
  });
});

test.describe("responding, editing and deleting", () => {
  test("a member responds; the poster is mailed and reads the response on the request's page", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
    outbox,
  }, testInfo) => {
    const poster = seedAgent({ fullName: "Rita Requester" });
    const responder = seedAgent({ fullName: "Sam Responder", brokerage: "Sooner Homes" });
    const token = uniqueToken();
    const request = testRequest(poster, { title: `${token} relocation`, hoursAgo: 27 * DAY_HOURS });
    seedRequests([request]);
    await waitForReplica();
    await login(responder, { then: `/referral-requests?q=${token}` });

    const card = cards(page).filter({ hasText: token });
    await expect(card.getByText("Expires in 3 days")).toBeVisible();
    await card.getByRole("link", { name: /^Respond/ }).click();
    await expect(page.getByRole("heading", { name: "Respond to Request" })).toBeVisible();
    await page.getByRole("button", { name: "Send Response" }).click();
    await expect(page.getByText("Please enter a message")).toBeVisible();
    if (testInfo.project.name === "js-on") {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotForPeople(page, testInfo, `request-respond-${width}`, { fullPage: true });
      }
    }

    const message = `I know Moore well ${token} <b>call</b>`;
    await page.getByLabel("Your Message").fill(message);
    await page.getByRole("button", { name: "Send Response" }).click();
    await expect(page.getByText("Response sent successfully!")).toBeVisible();

    const mail = await outbox.waitFor((m) => m.to === poster.email && m.text.includes(token));
    expect(mail.text).toContain(message);
    expect(mail.text).toContain(`/referral-requests/${request.id}`);
    // The browser tests' server has replies by mail on: a reply goes into the poster's conversation with the responder.
    expect(mail.replyTo).toMatch(/^reply\+[a-z2-7]+@reply\.e2e\.example\.test$/);

    await page.goto(`/referral-requests/${request.id}`);
    await expect(page.getByText("1 response")).toBeVisible();
    await expect(page.getByRole("heading", { name: /Responses/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Message", exact: true })).toHaveAttribute(
      "href",
      `/messages?to=${poster.email.replace(/[@.]/g, "_")}`,
    );

    await page.context().clearCookies();
    await login(poster, { then: `/referral-requests/${request.id}` });
    await expect(page.getByRole("heading", { name: "Responses (1)" })).toBeVisible();
    await expect(page.getByText(message)).toBeVisible();
    await expect(page.getByText("Sam Responder", { exact: true })).toBeVisible();
    expect(storedRequest(request.id)?.responses).toBe("1");
    if (testInfo.project.name === "js-on") {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotForPeople(page, testInfo, `request-detail-owner-${width}`, { fullPage: true });
      }
    }
  });

  test("the owner edits a request, keeping the input when a required field is blank", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const owner = seedAgent({ fullName: "Edith Editor" });
    const token = uniqueToken();
    const request = testRequest(owner, { title: `${token} before`, requestType: "listing", clientType: "", listingMLS: "M-1" });
    seedRequests([request]);
    await waitForReplica();
    await login(owner, { then: `/referral-requests?tab=mine&q=${token}` });

    await cards(page).filter({ hasText: token }).getByRole("link", { name: /^Edit/ }).click();
    await expect(page.getByRole("heading", { name: "Edit Request" })).toBeVisible();
    await expect(page.getByText("Listings - Need Buyers")).toBeVisible();
    await expect(page.getByLabel("MLS Number")).toHaveValue("M-1");
    await page.getByLabel("Request Title").fill("");
    await page.getByLabel("City/Area").fill("Norman");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Please fill in all required fields")).toBeVisible();
    await expect(page.getByLabel("City/Area")).toHaveValue("Norman");
    if (testInfo.project.name === "js-on") {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotForPeople(page, testInfo, `request-edit-${width}`, { fullPage: true });
      }
    }

    await page.getByLabel("Request Title").fill(`${token} after`);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Request updated successfully!")).toBeVisible();
    const card = cards(page).filter({ hasText: token });
    await expect(card.getByRole("heading", { name: `${token} after` })).toBeVisible();
    await expect(card.getByText("Norman, OK")).toBeVisible();
    expect(storedRequest(request.id)).toMatchObject({ title: `${token} after`, requestType: "listing", location: "Norman" });
  });

  test("the owner deletes a request after confirming; the row stays as deleted", async ({
    page,
    seedAgent,
    waitForReplica,
    login,
  }, testInfo) => {
    const owner = seedAgent({ fullName: "Dora Deleter" });
    const token = uniqueToken();
    const request = testRequest(owner, { title: `${token} to delete` });
    seedRequests([request]);
    await waitForReplica();
    await login(owner, { then: `/referral-requests?tab=mine&q=${token}` });

    await cards(page)
      .filter({ hasText: token })
      .getByRole("link", { name: /^Delete/ })
      .click();
    await expect(page.getByText("Are you sure you want to delete this request?")).toBeVisible();
    if (testInfo.project.name === "js-on") {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotForPeople(page, testInfo, `request-delete-${width}`, { fullPage: true });
      }
    }
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { name: "Agent Requests" })).toBeVisible();
    expect(storedRequest(request.id)?.status).toBe("active");

    await page.goto(`/referral-requests/${request.id}/delete`);
    await page.getByRole("button", { name: "Delete Request" }).click();
    await expect(page.getByText("Request deleted successfully!")).toBeVisible();
    await page.goto(`/referral-requests?tab=mine&q=${token}`);
    await expect(cards(page)).toHaveCount(0);
    expect(storedRequest(request.id)).toMatchObject({ status: "deleted", title: `${token} to delete` });
  });

  test("another member's edit or delete gets 403 and changes nothing", async ({ page, seedAgent, waitForReplica, login }) => {
    const owner = seedAgent({ fullName: "Omar Owner" });
    const intruder = seedAgent({ fullName: "Ivy Intruder" });
    const token = uniqueToken();
    const request = testRequest(owner, { title: `${token} mine` });
    seedRequests([request]);
    await waitForReplica();
    await login(intruder);

    const fields = { title: "Hijacked", location: "X", state: "TX", specialty: "Land", priceRange: "Over $5M", description: "Hijacked" };
    const edit = await page.request.post(`/referral-requests/${request.id}/edit`, { form: fields });
    expect(edit.status()).toBe(403);
    const remove = await page.request.post(`/referral-requests/${request.id}/delete`, { form: {} });
    expect(remove.status()).toBe(403);
    const editPage = await page.goto(`/referral-requests/${request.id}/edit`);
    expect(editPage?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not your request" })).toBeVisible();
    expect(storedRequest(request.id)).toMatchObject({ title: `${token} mine`, status: "active", description: request.description });
  });
});

test.describe("expiry", () => {
  test("a request past its 30 days is no longer listed and its row becomes expired", async ({ page, seedAgent, waitForReplica, login }) => {
    const owner = seedAgent({ fullName: "Ezra Expired" });
    const viewer = seedAgent({ fullName: "Val Viewer" });
    const token = uniqueToken();
    const old = testRequest(owner, { title: `${token} old`, hoursAgo: 31 * DAY_HOURS });
    const fresh = testRequest(owner, { title: `${token} fresh`, hoursAgo: 1 });
    seedRequests([old, fresh]);
    await waitForReplica();
    await login(viewer, { then: `/referral-requests?q=${token}` });

    await expect(cardTitles(page)).toHaveText([`${token} fresh`]);
    await expect.poll(() => storedRequest(old.id)?.status).toBe("expired");
    expect(storedRequest(old.id)?.title).toBe(`${token} old`);
    await page.goto(`/referral-requests/${old.id}`);
    await expect(page.getByText("This request has expired and no longer accepts responses.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Respond" })).toHaveCount(0);
  });
});

test.describe("screenshots", () => {
  test("post and list pages on a phone and a desktop", async ({ page, seedAgent, waitForReplica, login }, testInfo) => {
    const owner = seedAgent({ fullName: "Shelby Shots" });
    const viewer = seedAgent({ fullName: "Quinn Camera" });
    const token = uniqueToken();
    seedRequests([
      testRequest(owner, {
        title: `Luxury lake house needs buyers ${token}`,
        requestType: "listing",
        clientType: "",
        location: "Grapevine",
        state: "TX",
        specialty: "Luxury",
        priceRange: "$1M - $2M",
        listingAddress: "1 Shoreline Dr",
        listingMLS: "GV-2201",
        urgent: true,
        hoursAgo: 3,
      }),
      testRequest(owner, { title: `Relocating family needs OKC agent ${token}`, hoursAgo: 27 * DAY_HOURS, responses: 2 }),
    ]);
    await waitForReplica();
    await login(viewer, { then: "/post-request" });
    await lookAtEachWidth(page, testInfo, { shot: "post-request-choice" });
    await page.goto("/post-request?type=listing");
    await lookAtEachWidth(page, testInfo, { shot: "post-request-listing" });
    await page.goto(`/referral-requests?q=${token}`);
    await expect(cards(page)).toHaveCount(2);
    await lookAtEachWidth(page, testInfo, { shot: "referral-requests" });
  });
});
