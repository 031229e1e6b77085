import { describe, expect, it } from "vitest";
import { NOTICES, type NoticeKind } from "../../app/domain/notices";
import { createFlashStorage, redirectWithNotice, takeNotice } from "../../app/server/flash.server";

const config = { isProduction: false, sessionSecrets: ["flash-test-secret"] };
const services = { flash: createFlashStorage(config) };

/** The cookie a browser sends back after a response's Set-Cookie (name=value only), or null when the response set none. */
function cookieFrom(headers: Headers): string | null {
  const setCookie = headers.get("Set-Cookie");
  return setCookie === null ? null : setCookie.split(";")[0]!;
}

function requestWith(cookie: string | null): Request {
  return new Request("http://app.test/referral-requests/r1", { headers: cookie === null ? {} : { Cookie: cookie } });
}

describe("one-time notices in the flash cookie", () => {
  it("redirects with the notice in a signed, httpOnly, SameSite=Lax cookie and an address that names none", async () => {
    const response = await redirectWithNotice(services, "/referral-requests/r1", "posted");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/referral-requests/r1");
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^__flash=[^;]+\./);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("Max-Age=60");
  });

  it("gives the page its notice once: the cookie it commits again holds none, and a page load without the cookie finds none", async () => {
    const set = await redirectWithNotice(services, "/referral-requests/r1", "posted");
    const first = await takeNotice(services, requestWith(cookieFrom(set.headers)), ["posted", "invited"]);
    expect(first.notice).toBe(NOTICES.posted);

    const committed = cookieFrom(first.headers);
    expect(committed, "the page commits the cookie again").not.toBeNull();
    const reload = await takeNotice(services, requestWith(committed), ["posted", "invited"]);
    expect(reload.notice).toBeNull();
    expect(reload.headers.get("Set-Cookie")).toBeNull();

    const sharedLink = await takeNotice(services, requestWith(null), ["posted", "invited"]);
    expect(sharedLink.notice).toBeNull();
  });

  it("leaves a notice of a kind the page does not show for the page it was meant for", async () => {
    const set = await redirectWithNotice(services, "/messages?conversation=c1", "cleaned");
    const cookie = cookieFrom(set.headers);
    const elsewhere = await takeNotice(services, requestWith(cookie), ["posted"]);
    expect(elsewhere).toEqual({ kind: null, notice: null, headers: new Headers() });
    expect((await takeNotice(services, requestWith(cookie), ["cleaned"])).notice).toBe(NOTICES.cleaned);
  });

  it("ignores a cookie signed with another secret, and one naming no notice it knows", async () => {
    const forger = { flash: createFlashStorage({ ...config, sessionSecrets: ["someone-else"] }) };
    const forged = await redirectWithNotice(forger, "/referral-requests", "deleted");
    expect((await takeNotice(services, requestWith(cookieFrom(forged.headers)), ["deleted"])).notice).toBeNull();

    // A kind no longer known (left by an earlier version of the app) is not looked up on Object's prototype.
    const session = await services.flash.getSession();
    session.flash("notice", "toString" as NoticeKind);
    const unknown = cookieFrom(new Headers({ "Set-Cookie": await services.flash.commitSession(session) }));
    expect((await takeNotice(services, requestWith(unknown), ["deleted"])).notice).toBeNull();
  });
});
