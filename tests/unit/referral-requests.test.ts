import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { daysUntilExpiry, expiresAtFor, expiryNotice, isLive, isNewRequest } from "../../app/domain/referral-requests/expiry";
import { editRequestSchema, newRequest, postRequestSchema, respondSchema } from "../../app/domain/referral-requests/forms";
import { requestTags } from "../../app/domain/referral-requests/labels";
import {
  dashboardSearch,
  matchesChip,
  matchesDashboard,
  matchesFilters,
  parseDashboardQuery,
  parseRequestListQuery,
  requestListForDashboard,
  requestListSearch,
  sortRequests,
} from "../../app/domain/referral-requests/list-query";
import type { ReferralRequest } from "../../app/domain/workbook/tabs";
import { requestRecord } from "../support/records";

const NOW = new Date("2026-03-10T12:00:00.000Z");
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function ago(ms: number): string {
  return new Date(NOW.getTime() - ms).toISOString();
}

function request(overrides: Partial<ReferralRequest> = {}): ReferralRequest {
  return requestRecord(
    { email: "maria@example.com", fullName: "Maria Delgado" },
    { id: "r1", title: "Relocating family", description: "Moving from Dallas this summer.", createdAt: ago(2 * DAY), ...overrides },
  );
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** The field errors a schema gives a form, or null when it accepts it. */
function errorsOf(schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) {
  const result = parseWithZod(form(fields), { schema });
  return result.status === "error" ? result.error : null;
}

const validPost = {
  requestType: "listing",
  title: "4-bed with pool",
  location: "Dallas",
  state: "TX",
  specialty: "Luxury",
  priceRange: "$400k - $600k",
  description: "Coming soon.",
};

describe("the post request form", () => {
  it("names every required field with its own message", () => {
    expect(errorsOf(postRequestSchema, { requestType: "referral" })).toMatchObject({
      title: ["Title is required"],
      location: ["City/Area is required"],
      state: ["Please select a state"],
      specialty: ["Please select a specialty"],
      priceRange: ["Please select a price range"],
      description: ["Description is required"],
    });
  });

  it("treats a title of spaces as missing and refuses states outside TX and OK", () => {
    expect(errorsOf(postRequestSchema, { ...validPost, title: "   ", state: "CA" })).toMatchObject({
      title: ["Title is required"],
      state: ["Please select a state"],
    });
  });

  it("accepts a listing with an optional MLS number and checks the urgent box", () => {
    const result = parseWithZod(form({ ...validPost, listingMLS: "20581234", urgent: "on" }), { schema: postRequestSchema });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toMatchObject({
      requestType: "listing",
      listingMLS: "20581234",
      urgent: true,
      clientType: "buyer",
      contactPreference: "either",
    });
  });

  it("keeps text that looks like a formula or HTML exactly as typed", () => {
    const result = parseWithZod(form({ ...validPost, title: '=HYPERLINK("x")', description: "<b>bold</b>" }), {
      schema: postRequestSchema,
    });
    expect(result.status === "success" && result.value.title).toBe('=HYPERLINK("x")');
    expect(result.status === "success" && result.value.description).toBe("<b>bold</b>");
  });
});

describe("the edit and respond forms", () => {
  it("answers a blank title or description with the product's one message", () => {
    expect(errorsOf(editRequestSchema, { ...validPost, title: "", description: " " })).toMatchObject({
      title: ["Please fill in all required fields"],
      description: ["Please fill in all required fields"],
    });
  });

  it("asks for a message", () => {
    expect(errorsOf(respondSchema, { message: "  " })).toEqual({ message: ["Please enter a message"] });
    expect(errorsOf(respondSchema, { message: "I can help" })).toBeNull();
  });
});

describe("a new request", () => {
  it("is active with no responses and expires 30 days after it was posted", () => {
    const result = parseWithZod(form({ ...validPost, requestType: "referral", clientType: "seller", listingMLS: "123" }), {
      schema: postRequestSchema,
    });
    if (result.status !== "success") throw new Error("expected valid input");
    const created = newRequest({ id: "x", input: result.value, agent: { email: "a@example.com", fullName: "Ann Lee" }, now: NOW });
    expect(created).toMatchObject({
      status: "active",
      responses: 0,
      createdAt: NOW.toISOString(),
      agentEmail: "a@example.com",
      agentName: "Ann Lee",
      clientType: "seller",
    });
    expect(Date.parse(created.expiresAt ?? "") - NOW.getTime()).toBe(30 * DAY);
    // Fields of another type are left blank.
    expect(created.listingMLS).toBe("");
  });
});

describe("tags", () => {
  it("are the type label, location, state, specialty, price range and client label of a referral", () => {
    expect(requestTags(request({ clientType: "seller" }))).toEqual([
      "Referral",
      "Oklahoma City",
      "OK",
      "Residential",
      "$200k - $400k",
      "Seller",
    ]);
  });

  it("leave out the client for listings and buyer representation, and blank cells", () => {
    expect(requestTags(request({ requestType: "listing", clientType: "buyer" }))).toEqual([
      "Listing",
      "Oklahoma City",
      "OK",
      "Residential",
      "$200k - $400k",
    ]);
    expect(requestTags(request({ requestType: "buyer", location: " ", clientType: "" }))).toEqual([
      "Buyer Rep",
      "OK",
      "Residential",
      "$200k - $400k",
    ]);
  });
});

describe("expiry and badges", () => {
  it("shows no expiry notice while more than 7 days remain", () => {
    expect(expiryNotice(request({ createdAt: ago(22 * DAY), expiresAt: undefined }), NOW)).toBeNull();
  });

  it("says Expires in N days once 7 or fewer remain, rounding part days up", () => {
    const created = ago(23 * DAY);
    expect(expiryNotice(request({ createdAt: created, expiresAt: expiresAtFor(created) }), NOW)).toBe("Expires in 7 days");
    expect(daysUntilExpiry(request({ createdAt: ago(28 * DAY + HOUR) }), NOW)).toBe(2);
    expect(expiryNotice(request({ createdAt: ago(29 * DAY + HOUR) }), NOW)).toBe("Expires in 1 day");
  });

  it("counts a request as expired from its expiry on, and a row without expiry 30 days after creation", () => {
    expect(isLive(request({ expiresAt: NOW.toISOString() }), NOW)).toBe(false);
    expect(isLive(request({ expiresAt: new Date(NOW.getTime() + 1000).toISOString() }), NOW)).toBe(true);
    expect(isLive(request({ createdAt: ago(30 * DAY), expiresAt: undefined }), NOW)).toBe(false);
    expect(expiryNotice(request({ expiresAt: ago(1) }), NOW)).toBeNull();
  });

  it("lists only active requests", () => {
    expect(isLive(request({ status: "deleted" }), NOW)).toBe(false);
    expect(isLive(request({ status: "expired" }), NOW)).toBe(false);
  });

  it("marks requests under 24 hours old as NEW", () => {
    expect(isNewRequest(request({ createdAt: ago(23 * HOUR + 59 * 60 * 1000) }), NOW)).toBe(true);
    expect(isNewRequest(request({ createdAt: ago(24 * HOUR) }), NOW)).toBe(false);
  });
});

describe("filters, search and sort", () => {
  const dallasListing = request({
    id: "l",
    requestType: "listing",
    location: "Dallas",
    state: "TX",
    specialty: "Luxury",
    priceRange: "$1M - $2M",
    clientType: "",
    title: "Pool home",
    createdAt: ago(DAY),
  });
  const okcReferral = request({ id: "r", createdAt: ago(3 * DAY) });
  const austinBuyer = request({
    id: "b",
    requestType: "buyer",
    location: "Austin",
    state: "TX",
    specialty: "First-Time Buyers",
    clientType: "",
    description: "Needs a pool",
    createdAt: ago(2 * DAY),
  });
  const all = [dallasListing, okcReferral, austinBuyer];
  const ids = (list: readonly ReferralRequest[]) => list.map((item) => item.id);

  it("filters by type, state, specialty, price range and client type", () => {
    expect(ids(all.filter((r) => matchesFilters(r, { type: "listing" })))).toEqual(["l"]);
    expect(ids(all.filter((r) => matchesFilters(r, { state: "TX" })))).toEqual(["l", "b"]);
    expect(ids(all.filter((r) => matchesFilters(r, { specialty: "luxury" })))).toEqual(["l"]);
    expect(ids(all.filter((r) => matchesFilters(r, { priceRange: "$200k - $400k" })))).toEqual(["r", "b"]);
    expect(ids(all.filter((r) => matchesFilters(r, { clientType: "buyer" })))).toEqual(["r"]);
  });

  it("searches title, description and location ignoring case", () => {
    expect(ids(all.filter((r) => matchesFilters(r, { q: "POOL" })))).toEqual(["l", "b"]);
    expect(ids(all.filter((r) => matchesFilters(r, { q: "oklahoma" })))).toEqual(["r"]);
    expect(ids(all.filter((r) => matchesFilters(r, { q: "Residential" })))).toEqual([]);
  });

  it("sorts newest first by default, or by location or specialty", () => {
    expect(ids(sortRequests(all, "newest"))).toEqual(["l", "b", "r"]);
    expect(ids(sortRequests(all, "location"))).toEqual(["b", "l", "r"]);
    expect(ids(sortRequests(all, "specialty"))).toEqual(["b", "l", "r"]);
  });

  it("reads the address, ignoring unknown values, and writes it back without defaults", () => {
    const query = parseRequestListQuery(
      new URLSearchParams("tab=mine&type=LISTING&state=ca&specialty=luxury&sort=location&q=%20pool%20&clientType=renter"),
    );
    expect(query).toEqual({
      tab: "mine",
      type: "listing",
      state: undefined,
      specialty: "Luxury",
      priceRange: undefined,
      clientType: undefined,
      sort: "location",
      q: "pool",
    });
    expect(requestListSearch(query)).toBe("?tab=mine&type=listing&specialty=Luxury&q=pool&sort=location");
    expect(requestListSearch(parseRequestListQuery(new URLSearchParams()))).toBe("");
  });
});

describe("dashboard chips", () => {
  const listing = request({ id: "l", requestType: "listing", state: "TX" });
  const urgentReferral = request({ id: "u", urgent: true, state: "OK" });

  it("narrow to referrals, listings needing buyers, the member's state or urgent requests", () => {
    expect(matchesChip(listing, "all", "TX")).toBe(true);
    expect(matchesChip(listing, "referrals", "TX")).toBe(false);
    expect(matchesChip(urgentReferral, "referrals", "TX")).toBe(true);
    expect(matchesChip(listing, "buyers", "TX")).toBe(true);
    expect(matchesChip(urgentReferral, "buyers", "TX")).toBe(false);
    expect(matchesChip(listing, "market", "tx")).toBe(true);
    expect(matchesChip(urgentReferral, "market", "TX")).toBe(false);
    expect(matchesChip(listing, "market", "")).toBe(false);
    expect(matchesChip(urgentReferral, "urgent", "TX")).toBe(true);
    expect(matchesChip(listing, "urgent", "TX")).toBe(false);
  });

  it("apply together with the filters, and lead View All to the matching requests page", () => {
    const query = parseDashboardQuery(new URLSearchParams("chip=market&specialty=Residential&q=relocating"));
    expect(query).toEqual({ type: undefined, state: undefined, specialty: "Residential", q: "relocating", chip: "market" });
    expect(matchesDashboard(urgentReferral, query, "OK")).toBe(true);
    expect(matchesDashboard(urgentReferral, { ...query, q: "ranch" }, "OK")).toBe(false);
    expect(dashboardSearch(query)).toBe("?specialty=Residential&q=relocating&chip=market");
    expect(requestListForDashboard(query, "OK")).toBe("/referral-requests?state=OK&specialty=Residential&q=relocating");
    expect(requestListForDashboard(parseDashboardQuery(new URLSearchParams("chip=buyers")), "TX")).toBe("/referral-requests?type=listing");
  });
});
