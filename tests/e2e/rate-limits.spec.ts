import { expect, test } from "./fixtures";
import { uniqueToken } from "./support/requests";
import { screenshotForPeople } from "./support/screenshots";

/** REQUESTS_PER_MEMBER_PER_HOUR's default: the e2e server keeps it. */
const REQUESTS_PER_HOUR = 10;

test("a member past the posting limit sees the message beside the form, with everything typed kept", async ({
  page,
  seedAgent,
  waitForReplica,
  login,
}, testInfo) => {
  const poster = seedAgent({ fullName: "Rita Ratelimit" });
  await waitForReplica();
  await login(poster, { then: "/post-request?type=buyer" });
  const token = uniqueToken();

  // The browser's own session posts the allowed ones, as a quick succession of form posts would.
  for (let i = 0; i < REQUESTS_PER_HOUR; i += 1) {
    const posted = await page.request.post("/post-request?type=buyer", {
      form: {
        requestType: "buyer",
        title: `${token} ${i}`,
        location: "Tulsa",
        state: "OK",
        specialty: "Land",
        priceRange: "Under $200k",
        description: "Quick post.",
      },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(302);
  }

  await page.goto("/post-request?type=buyer");
  await page.getByLabel("Request Title").fill(`${token} one too many`);
  await page.getByLabel("City/Area").fill("Norman");
  await page.getByLabel("State", { exact: true }).selectOption("OK");
  await page.getByLabel("Specialty").selectOption("Land");
  await page.getByLabel("Price Range").selectOption("Under $200k");
  await page.getByLabel("Description").fill("Kept after the refusal.");
  const answer = page.waitForResponse(
    (response) => response.request().method() === "POST" && /^\/post-request(\.data)?$/.test(new URL(response.url()).pathname),
  );
  await page.getByRole("button", { name: "Post Buyer Rep Request" }).click();
  const refused = await answer;
  expect(refused.status()).toBe(429);
  expect(Number(await refused.headerValue("Retry-After"))).toBeGreaterThan(0);

  await expect(page.getByRole("alert")).toHaveText("Too many requests posted. Please wait 60 minutes and try again.");
  await expect(page.getByLabel("Request Title")).toHaveValue(`${token} one too many`);
  await expect(page.getByLabel("City/Area")).toHaveValue("Norman");
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("OK");
  await expect(page.getByLabel("Description")).toHaveValue("Kept after the refusal.");
  await screenshotForPeople(page, testInfo, "post-request-rate-limited", { fullPage: true });
});

/** MESSAGES_PER_MEMBER_PER_MINUTE's default: the e2e server keeps it. */
const MESSAGES_PER_MINUTE = 20;

test("a member sending messages faster than anyone types sees the wait beside the message box, with the text kept", async ({
  page,
  seedAgent,
  waitForReplica,
  login,
}, testInfo) => {
  const sender = seedAgent({ fullName: "Sam Burst" });
  const partner = seedAgent({ fullName: "Pat Partner" });
  await waitForReplica();
  await login(sender, { then: `/messages?to=${partner.id}` });
  const token = uniqueToken();

  // The first message starts the conversation; the rest fill the minute as a script would.
  for (let i = 0; i < MESSAGES_PER_MINUTE; i += 1) {
    const sent = await page.request.post(`/messages?to=${partner.id}`, {
      form: { intent: "send", text: `${token} ${i}` },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(302);
  }

  await page.goto(`/messages?to=${partner.id}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(`${token} one too many`);
  const answer = page.waitForResponse(
    (response) => response.request().method() === "POST" && /^\/messages(\.data)?$/.test(new URL(response.url()).pathname),
  );
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const refused = await answer;
  expect(refused.status()).toBe(429);

  const composer = page.locator("#message-form");
  await expect(composer.getByRole("alert")).toHaveText("Too many messages. Please wait 1 minute and try again.");
  await expect(box).toHaveValue(`${token} one too many`);
  await screenshotForPeople(page, testInfo, "messages-rate-limited", { fullPage: true });
});
