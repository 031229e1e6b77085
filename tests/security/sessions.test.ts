import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { action as logoutAction } from "../../app/routes/logout";
import { loader as dashboardLoader } from "../../app/routes/member-dashboard";
import { loader as eventsLoader } from "../../app/routes/messages_.events";
import { action as loginAction } from "../../app/routes/member-login";
import { setNewPassword } from "../../app/server/accounts/password-reset.server";
import { SESSION_COOKIE_NAME, SESSION_MAX_AGE_SECONDS } from "../../app/server/auth/session.server";
import { cookieFrom, deleteAgentRow, editAgentRow, getWithCookie, responseOf } from "../integration/accounts-support";
import { outcome } from "../integration/requests-support";
import { insertAgent, postForm, testContext } from "../support/services";

// Real bcrypt at cost 12 for each login: seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const PASSWORD = "correct horse battery";
const PRODUCTION = {
  NODE_ENV: "production",
  SESSION_SECRET: "a-long-production-secret-for-tests-0123456789",
  APP_URL: "https://redriverreferrals.test",
};

async function logIn(context: AppLoadContext) {
  const agent = await insertAgent(context, { password: PASSWORD });
  const response = await responseOf(() =>
    loginAction({ request: postForm("/member-login", { email: agent.email, password: PASSWORD }), context, params: {} }),
  );
  return { agent, response, cookie: cookieFrom(response) };
}

/** The cookie's value works on a member page: the dashboard answers instead of sending to login. */
async function opensDashboard(context: AppLoadContext, cookie: string): Promise<boolean> {
  const answer = await outcome(() => dashboardLoader({ request: getWithCookie("/member-dashboard", cookie), context, params: {} }));
  return !(answer instanceof Response);
}

describe("the session cookie's flags", () => {
  function attributes(setCookie: string): string[] {
    return setCookie.split(";").map((part) => part.trim().toLowerCase());
  }

  it("is HttpOnly, SameSite=Lax, site-wide, 7 days, signed; Secure in production", async () => {
    const production = testContext({}, PRODUCTION);
    await production.services.store.refresh();
    const { response } = await logIn(production);
    const flags = attributes(response.headers.get("Set-Cookie") ?? "");
    expect(flags[0]).toMatch(new RegExp(`^${SESSION_COOKIE_NAME}=[^;]+\\.[^;]+$`));
    expect(flags).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/", `max-age=${SESSION_MAX_AGE_SECONDS}`, "secure"]));
    expect(flags.some((flag) => flag.startsWith("domain="))).toBe(false);
  });

  it("carries no password, hash or e-mail in the cookie", async () => {
    const context = testContext();
    const { agent, cookie } = await logIn(context);
    const decoded = Buffer.from(decodeURIComponent(cookie.split("=")[1] ?? "").split(".")[0] ?? "", "base64").toString("utf8");
    expect(decoded).not.toContain(PASSWORD);
    expect(decoded).not.toContain(agent.passwordHash);
    expect(decoded).not.toContain(agent.email);
  });
});

describe("a session is revoked on the server", () => {
  it("when the password changes: every browser's cookie stops working at once", async () => {
    const context = testContext();
    const { agent, cookie } = await logIn(context);
    expect(await opensDashboard(context, cookie)).toBe(true);
    await setNewPassword(context.services, agent, "a brand new password");
    expect(await opensDashboard(context, cookie)).toBe(false);
    const stream = (await eventsLoader({ request: getWithCookie("/messages/events", cookie), context, params: {} })) as Response;
    expect(stream.status).toBe(401);
  });

  it("when staff reject the agent in the sheet", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const { agent, cookie } = await logIn(context);
    await editAgentRow(context, agent.id, { status: "rejected" });
    expect(await opensDashboard(context, cookie)).toBe(false);
  });

  it("when staff delete the agent's row", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const { agent, cookie } = await logIn(context);
    await deleteAgentRow(context, agent.id);
    expect(await opensDashboard(context, cookie)).toBe(false);
  });
});

/** Logging out: what the browser is told. Ending the session on the server is extended here when it lands. */
describe("logout", () => {
  it("clears the cookie in the browser, by POST only", async () => {
    const context = testContext();
    const { cookie } = await logIn(context);
    const request = new Request("http://localhost/logout", { method: "POST", headers: { Cookie: cookie } });
    const response = await responseOf(() => logoutAction({ request, context, params: {} }));
    expect(response.status).toBe(302);
    const cleared = response.headers.get("Set-Cookie") ?? "";
    expect(cleared).toMatch(new RegExp(`^${SESSION_COOKIE_NAME}=;`));
    expect(cleared.toLowerCase()).toMatch(/expires=thu, 01 jan 1970|max-age=0/);
  });
});
