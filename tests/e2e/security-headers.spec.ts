import { expect, test } from "./fixtures";
import { e2eBaseUrl } from "./support/env";

/** The production build's answers, by kind: the same security headers on each, and member answers never cached. */
test.describe("security headers on the built server", () => {
  test("every response kind carries Permissions-Policy and the CSP; images only from this site and Cloudinary @server-only", async ({
    request,
  }) => {
    const kinds = [
      { path: "/", status: 200 },
      { path: "/no-such-page", status: 404 },
      { path: "/healthz", status: 200 },
      { path: "/favicon.svg", status: 200 },
      { path: "/uploads/profile-missing.jpg", status: 404 },
      { path: "/messages/events", status: 401 },
    ];
    for (const { path, status } of kinds) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(status);
      const headers = response.headers();
      expect(headers["permissions-policy"], path).toContain("camera=()");
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["content-security-policy"], path).toContain("img-src 'self' data: https://res.cloudinary.com");
    }
  });

  test("a member's pages, data and event stream are private, no-store; a visitor's home page is not", async ({ page, asWorkerMember }) => {
    const visitorHome = await page.request.get("/", { headers: { Cookie: "" } });
    expect(visitorHome.headers()["cache-control"] ?? "").not.toContain("private");

    await asWorkerMember();
    for (const path of ["/member-dashboard", "/messages", "/", "/referral-requests"]) {
      const response = await page.request.get(path);
      expect(response.headers()["cache-control"], path).toBe("private, no-store");
    }
    // The event stream never ends: read its headers only.
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join("; ");
    const controller = new AbortController();
    const stream = await fetch(`${e2eBaseUrl}/messages/events`, { headers: { Cookie: cookie }, signal: controller.signal });
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    expect(stream.headers.get("cache-control")).toBe("private, no-store");
    expect(stream.headers.get("permissions-policy")).toContain("camera=()");
    controller.abort();
  });
});
