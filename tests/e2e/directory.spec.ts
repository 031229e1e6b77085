import type { Page } from "@playwright/test";
import { agentRecord } from "../support/records";
import { expect, test } from "./fixtures";
import { SPECIALTIES } from "../../app/domain/enums";
import type { Agent } from "../../app/domain/workbook/tabs";
import { quickPasswordHash, seedAgents, waitForReplica } from "./support/agents";

/**
 * The agents these tests look for. Other tests add agents of their own, so searches
 * here always include a word only these agents have ("Quillfeather", "Quillburg",
 * "Qf..."), and counts are read as "Showing N of <any total>".
 */
const PASSWORD = "directory test password";
const BROKERAGE = "Quillfeather Realty";

const member = agentRecord({
  id: "dir-e2e-member",
  fullName: "Mia Qfmember",
  email: "mia.qfmember@example.com",
  brokerage: "Other Realty",
  passwordHash: quickPasswordHash(PASSWORD),
});
const orla = agentRecord({
  id: "dir-e2e-orla",
  fullName: "Orla Quillfeather",
  email: "orla.qf@example.com",
  brokerage: "Prairie Homes",
  state: "OK",
  city: "Tulsa",
  phone: "9185550123",
  specialties: ["Land", "Auction"],
  membershipType: "founder",
});
const tobias = agentRecord({
  id: "dir-e2e-tobias",
  fullName: "Tobias Qfbrandt",
  email: "tobias.qf@example.com",
  brokerage: BROKERAGE,
  state: "TX",
  city: "San Marcos",
  specialties: ["Land"],
  membershipType: "vip",
});
const renee = agentRecord({
  id: "dir-e2e-renee",
  fullName: "Renée Núñez",
  email: "renee.qf@example.com",
  brokerage: BROKERAGE,
  state: "OK",
  city: "Norman",
  specialties: ["Luxury"],
});
const janeth = agentRecord({
  id: "dir-e2e-janeth",
  fullName: "Janeth Qfdoe",
  email: "jane.qfdoe@example.com",
  brokerage: BROKERAGE,
  state: "TX",
  city: "Austin",
  phone: "214.555.0199",
  specialties: ["Residential", "Luxury", "Land", "Auction", "Commercial"],
  bio: "Twenty years of ranches and family homes around Austin.",
});
const ines = agentRecord({
  id: "dir-e2e-ines",
  fullName: "Ines Qfsolo",
  email: "ines.qf@example.com",
  brokerage: "",
  bio: "",
  specialties: [],
});
const pending = agentRecord({
  id: "dir-e2e-pending",
  fullName: "Pablo Qfpending",
  email: "pablo.qf@example.com",
  brokerage: BROKERAGE,
  status: "pending",
});
/** 26 agents in a city of their own: two pages of the member directory, with the four above two pages of the public one. */
const pagingAgents: Agent[] = Array.from({ length: 26 }, (_, i) =>
  agentRecord({
    id: `dir-e2e-paging-${i}`,
    fullName: `Paging Vexley ${String(i + 1).padStart(2, "0")}`,
    email: `paging.${i}.qf@example.com`,
    brokerage: BROKERAGE,
    city: "Quillburg",
    specialties: [SPECIALTIES[i % SPECIALTIES.length]!],
  }),
);
/** Orla's name matches; the other 29 agents of the brokerage match by brokerage. */
const QUILLFEATHER_MATCHES = 30;

test.beforeAll(async () => {
  seedAgents([member, orla, tobias, renee, janeth, ines, pending, ...pagingAgents]);
  await waitForReplica();
});

/** Form fields by their exact label: "Search" is also part of the form's own name, "Search agents". */
const field = (page: Page, label: string) => page.getByRole("main").getByLabel(label, { exact: true });
const status = (page: Page) => page.getByRole("main").getByRole("status");
const cards = (page: Page) => page.getByRole("main").getByRole("article");
const cardNames = (page: Page) => cards(page).getByRole("heading", { level: 3 }).allInnerTexts();

/** A visitor's directory has no scripts, with JavaScript on or off: the Search button sends the filters. */
async function search(page: Page) {
  await page.getByRole("button", { name: "Search" }).click();
}

/** Submits a member's filters: with JavaScript the list follows the fields by itself, without it the Search button sends them. */
async function applyFilters(page: Page, javaScript: boolean) {
  if (!javaScript) await page.getByRole("button", { name: "Search" }).click();
}

test.describe("public directory", () => {
  test("finds an agent by name with accents and case ignored", async ({ page }) => {
    await page.goto("/directory");
    await field(page, "Search").fill("RENEE nunez");
    await search(page);
    await expect(page).toHaveURL(/q=RENEE(\+|%20)nunez/);
    await expect(status(page)).toHaveText(/^Showing 1 of \d+ agents$/);
    await expect.poll(() => cardNames(page)).toEqual(["Renée Núñez"]);
  });

  test("ranks name matches first and pages 24 at a time with shareable page links", async ({ page }) => {
    await page.goto("/directory?q=quillfeather");
    // The count names the cards on screen, not all the matches as if they were shown.
    await expect(status(page)).toHaveText(`Showing 1-24 of ${QUILLFEATHER_MATCHES} agents`);
    await expect(cards(page)).toHaveCount(24);
    await expect.poll(async () => (await cardNames(page))[0]).toBe("Orla Quillfeather");

    await page.getByRole("navigation", { name: "Directory pages" }).getByRole("link", { name: "Page 2" }).click();
    await expect(page).toHaveURL(/\/directory\?q=quillfeather&page=2$/);
    await expect(cards(page)).toHaveCount(QUILLFEATHER_MATCHES - 24);
    await expect(status(page)).toHaveText(`Showing 25-${QUILLFEATHER_MATCHES} of ${QUILLFEATHER_MATCHES} agents`);
    await expect(page.locator("[aria-current=page]")).toHaveText("Page 2");

    await page.goBack();
    await expect(page).toHaveURL(/\/directory\?q=quillfeather$/);
    await expect(cards(page)).toHaveCount(24);
  });

  test("filters by state, by specialty and by both, and shows the footer's state links", async ({ page }) => {
    await page.goto("/directory?q=quillfeather");
    await field(page, "State").selectOption("OK");
    await search(page);
    await expect(page).toHaveURL(/state=OK/);
    await expect.poll(async () => (await cardNames(page)).sort()).toEqual(["Orla Quillfeather", "Renée Núñez"]);

    await field(page, "State").selectOption("");
    await field(page, "Specialty").selectOption("Land");
    await search(page);
    await expect(page).toHaveURL(/specialty=Land/);
    await expect(page).not.toHaveURL(/state=[A-Z]/);
    await expect
      .poll(async () => (await cardNames(page)).filter((name) => !name.startsWith("Paging")))
      .toEqual(["Orla Quillfeather", "Janeth Qfdoe", "Tobias Qfbrandt"]);

    await field(page, "State").selectOption("TX");
    await search(page);
    await expect(page).toHaveURL(/state=TX/);
    await expect
      .poll(async () => (await cardNames(page)).filter((name) => !name.startsWith("Paging")))
      .toEqual(["Janeth Qfdoe", "Tobias Qfbrandt"]);

    await page.goto("/directory?state=OK&q=tulsa");
    await expect(field(page, "State")).toHaveValue("OK");
    await expect.poll(() => cardNames(page)).toContain("Orla Quillfeather");
  });

  test("shows No agents found, and Clear all filters starts over", async ({ page }) => {
    await page.goto("/directory?q=zzqqxx&state=TX");
    await expect(page.getByRole("heading", { name: "No agents found" })).toBeVisible();
    await expect(status(page)).toHaveText(/^Showing 0 of \d+ agents$/);
    await page.getByRole("link", { name: "Clear all filters" }).first().click();
    await expect(page).toHaveURL(/\/directory$/);
    await expect(field(page, "Search")).toHaveValue("");
    await expect(field(page, "State")).toHaveValue("");
    await expect(cards(page).first()).toBeVisible();
  });

  test("lists approved agents only and shows cards without e-mail or phone", async ({ page }) => {
    await page.goto("/directory?q=qfpending");
    await expect(page.getByRole("heading", { name: "No agents found" })).toBeVisible();

    await page.goto("/directory?q=janeth+qfdoe");
    const card = cards(page).first();
    await expect(card.getByRole("heading", { name: "Janeth Qfdoe" })).toBeVisible();
    await expect(card).toContainText("Austin, TX");
    await expect(card).toContainText("Verified");
    await expect(card).toContainText(BROKERAGE);
    await expect(card.getByRole("list", { name: "Specialties of Janeth Qfdoe" }).getByRole("listitem")).toHaveText([
      "Residential",
      "Luxury",
      "Land",
      "+2 more",
    ]);
    const html = await page.content();
    for (const secret of ["jane.qfdoe", "jane_qfdoe", "jane-qfdoe", "555-0199", "5550199"]) expect(html).not.toContain(secret);

    await page.goto("/directory?q=orla");
    await expect(cards(page).first()).toContainText("Founding Member");
    await page.goto("/directory?q=tobias");
    await expect(cards(page).first()).toContainText("VIP");
  });

  test("sends a visitor to log in before messaging or viewing a profile, then on to the profile", async ({ page, login }) => {
    await page.goto("/directory?q=janeth+qfdoe");
    await page.getByRole("link", { name: "Message Janeth Qfdoe" }).click();
    await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fmessages%3Fto%3D/);

    await page.goto("/directory?q=janeth+qfdoe");
    await page.getByRole("link", { name: "View Profile of Janeth Qfdoe" }).click();
    await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fagent%2F/);
    await login(member, { password: PASSWORD });
    await expect(page).toHaveURL(/\/agent\/jane_qfdoe_example_com$/);
    await expect(page.getByRole("heading", { level: 1, name: "Janeth Qfdoe" })).toBeVisible();
  });
});

test.describe("the directory with JavaScript, for a member", () => {
  // Without JavaScript the list updates on submit, covered above; this runs in the js-on project only.
  // A visitor's directory has no scripts: a member's has them (decision 0085).
  test(
    "updates a member's list while typing, one history entry per typing session, and follows the back button",
    { tag: "@needs-js" },
    async ({ page, asWorkerMember }) => {
      await asWorkerMember();
      await page.goto("/directory?q=quillfeather");
      const search = field(page, "Search");
      await search.fill("");
      await search.pressSequentially("tobias", { delay: 40 });
      await expect(page).toHaveURL(/q=tobias$/);
      await search.pressSequentially(" qfb", { delay: 40 });
      await expect(page).toHaveURL(/q=tobias(\+|%20)qfb$/);
      await expect.poll(() => cardNames(page)).toEqual(["Tobias Qfbrandt"]);
      await expect(search).toBeFocused();

      await page.goBack();
      await expect(page).toHaveURL(/\/directory\?q=quillfeather$/);
      await expect(search).toHaveValue("quillfeather");
    },
  );
});

test.describe("member directory", () => {
  test("sends a visitor to log in and back to the filtered page", async ({ page, login }) => {
    await page.goto("/member-directory?state=OK");
    await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fmember-directory%3Fstate%3DOK$/);
    await login(member, { password: PASSWORD });
    await expect(page).toHaveURL(/\/member-directory\?state=OK$/);
    await expect(page.getByRole("heading", { level: 1, name: "Member Directory" })).toBeVisible();
    await expect(field(page, "State")).toHaveValue("OK");
  });

  test("filters by state, city and specialty substrings and shows contact details", async ({ page, javaScriptEnabled, login }) => {
    await page.goto("/member-directory");
    await login(member, { password: PASSWORD });
    await expect(page).toHaveURL(/\/member-directory$/);

    await field(page, "State").selectOption("OK");
    await applyFilters(page, javaScriptEnabled);
    await field(page, "City").fill("TUL");
    await field(page, "Specialty").fill("aucT");
    await applyFilters(page, javaScriptEnabled);
    await expect(page).toHaveURL(/state=OK&city=TUL&specialty=aucT/);
    await expect(status(page)).toHaveText(/^Showing \d+ of \d+ verified agents$/);
    const card = cards(page).filter({ hasText: "Orla Quillfeather" });
    await expect(card).toContainText("FOUNDER");
    await expect(card).toContainText("Tulsa, OK");
    await expect(card).toContainText("Prairie Homes");
    await expect(card).toContainText("(918) 555-0123");
    await expect(card.getByRole("link", { name: "View Profile of Orla Quillfeather" })).toHaveAttribute(
      "href",
      "/agent/orla_qf_example_com",
    );
    const contact = await card.getByRole("link", { name: "Contact Orla Quillfeather" }).getAttribute("href");
    expect(contact).toMatch(/^mailto:orla\.qf@example\.com\?subject=Referral%20inquiry%20from%20Mia%20Qfmember/);

    await field(page, "City").fill("san m");
    await field(page, "Specialty").fill("lan");
    await field(page, "State").selectOption("");
    await applyFilters(page, javaScriptEnabled);
    await expect(page).toHaveURL(/city=san(\+|%20)m&specialty=lan(&sort=)?$/);
    await expect(page).not.toHaveURL(/state=[A-Z]/);
    await expect.poll(() => cardNames(page)).toContain("Tobias Qfbrandt");
    await expect.poll(() => cardNames(page)).not.toContain("Orla Quillfeather");

    await field(page, "City").fill("Nowhereville");
    await applyFilters(page, javaScriptEnabled);
    await expect(page.getByRole("heading", { name: "No agents found" })).toBeVisible();
  });

  test("pages the results", async ({ page, login }) => {
    await page.goto("/member-directory?city=quillburg");
    await login(member, { password: PASSWORD });
    await expect(status(page)).toHaveText("Showing 1-24 of 26 verified agents");
    await expect(cards(page)).toHaveCount(24);
    await page.getByRole("navigation", { name: "Member directory pages" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/city=quillburg&page=2$/);
    await expect(status(page)).toHaveText("Showing 25-26 of 26 verified agents");
    await expect.poll(() => cardNames(page)).toEqual(["Paging Vexley 25", "Paging Vexley 26"]);
  });
});

test.describe("agent profile", () => {
  test("shows the full profile at the canonical id", async ({ page, login }) => {
    await page.goto("/agent/jane_qfdoe_example_com");
    await login(member, { password: PASSWORD });
    await expect(page.getByRole("heading", { level: 1, name: "Janeth Qfdoe" })).toBeVisible();
    const main = page.getByRole("main");
    await expect(main).toContainText(BROKERAGE);
    await expect(main).toContainText("Austin, TX");
    await expect(main).toContainText("MEMBER");
    await expect(page.getByRole("region", { name: "About" })).toContainText("Twenty years of ranches");
    await expect(page.getByRole("region", { name: "Specialties" })).toContainText("+2 more");
    await expect(page.getByRole("link", { name: "jane.qfdoe@example.com" })).toHaveAttribute("href", "mailto:jane.qfdoe@example.com");
    await expect(page.getByRole("link", { name: "(214) 555-0199" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Send Message" })).toHaveAttribute("href", "/messages?to=jane_qfdoe_example_com");
    await page.getByRole("link", { name: "Back to Member Directory" }).click();
    await expect(page).toHaveURL(/\/member-directory$/);
  });

  test("shows the fallbacks: Independent Agent, No bio available, MEMBER", async ({ page, login }) => {
    await page.goto("/agent/ines_qf_example_com");
    await login(member, { password: PASSWORD });
    await expect(page.getByRole("heading", { level: 1, name: "Ines Qfsolo" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Independent Agent");
    await expect(page.getByRole("region", { name: "About" })).toContainText("No bio available");
    await expect(page.getByRole("main")).toContainText("MEMBER");
  });

  test("redirects the -at- and name-based ids to the canonical one", async ({ page, login }) => {
    await page.goto("/agent/jane-qfdoe-at-example-com");
    await login(member, { password: PASSWORD });
    await expect(page).toHaveURL(/\/agent\/jane_qfdoe_example_com$/);
    await page.goto("/agent/Janeth_Qfdoe");
    await expect(page).toHaveURL(/\/agent\/jane_qfdoe_example_com$/);
    await expect(page.getByRole("heading", { level: 1, name: "Janeth Qfdoe" })).toBeVisible();
  });

  test("answers an unknown or unapproved agent with Agent Not Found and status 404", async ({ page, login }) => {
    await page.goto("/member-login");
    await login(member, { password: PASSWORD });
    await expect(page).toHaveURL(/\/member-dashboard/);
    for (const id of ["nobody_example_com", "pablo_qf_example_com"]) {
      const response = await page.goto(`/agent/${id}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Agent Not Found" })).toBeVisible();
      await expect(page.getByText("Agent not found", { exact: true })).toBeVisible();
    }
  });
});

test.describe("a directory page whose scripts are still starting", () => {
  // A slow phone: the choice lands while React hydrates the page. Before hydration waited for
  // Remix's page data, such a choice made React give up on the page about half the time
  // ("Root did not complete"): the page kept no scripts and the choice was never applied.
  test("applies a state chosen while the page hydrates @needs-js", async ({ page, asWorkerMember }) => {
    await asWorkerMember();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const cpu = await page.context().newCDPSession(page);
    for (const state of ["OK", "TX", "OK"]) {
      await cpu.send("Emulation.setCPUThrottlingRate", { rate: 8 });
      await page.goto("/directory?q=quillfeather", { waitUntil: "domcontentloaded" });
      await field(page, "State").selectOption(state);
      await cpu.send("Emulation.setCPUThrottlingRate", { rate: 1 });
      await expect(page).toHaveURL(new RegExp(`state=${state}`));
    }
    await expect.poll(async () => (await cardNames(page)).sort()).toEqual(["Orla Quillfeather", "Renée Núñez"]);
    expect(errors).toEqual([]);
  });
});
