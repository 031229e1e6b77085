import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOGIN_MESSAGES } from "../../app/domain/auth";
import { loader as dashboardLoader } from "../../app/routes/member-dashboard";
import { action as loginAction, loader as loginLoader } from "../../app/routes/member-login";
import { action as logoutAction } from "../../app/routes/logout";
import { setNewPassword } from "../../app/server/accounts/password-reset.server";
import { createServices, stopServices } from "../../app/server/service-lifecycle.server";
import { createStoreFromConfig } from "../../app/server/store/store.server";
import { getMember, requireMember, SESSION_MAX_AGE_SECONDS } from "../../app/server/auth/session.server";
import { insertAgent, postForm, testContext } from "../support/services";
import { cookieFrom, deleteAgentRow, editAgentRow, getWithCookie, responseOf } from "./accounts-support";

// Each login or new password is a real bcrypt check (at the test cost, decision 0040) on a machine that may be busy.
vi.setConfig({ testTimeout: 30_000 });

const PASSWORD = "correct horse battery";

async function loggedIn(context: AppLoadContext, fields: Parameters<typeof insertAgent>[1] = {}) {
  const agent = await insertAgent(context, { password: PASSWORD, ...fields });
  const response = await responseOf(() =>
    loginAction({ request: postForm("/member-login", { email: agent.email, password: PASSWORD }), context, params: {} }),
  );
  return { agent, cookie: cookieFrom(response) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("member pages", () => {
  it("send a visitor without a session to login, remembering where they were going", async () => {
    const context = testContext();
    const response = await responseOf(() =>
      dashboardLoader({ request: getWithCookie("/member-dashboard?tab=mine", null), context, params: {} }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/member-login?redirectTo=%2Fmember-dashboard%3Ftab%3Dmine");
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });

  it("show the member's own profile and nothing secret", async () => {
    const context = testContext();
    const { cookie } = await loggedIn(context, {
      fullName: "Dana Reyes",
      specialties: ["Residential", "Luxury", "Land", "Auction"],
      statusNote: "checked by Sam",
      photoUrl: "javascript:alert(1)",
    });
    const data = await dashboardLoader({ request: getWithCookie("/member-dashboard", cookie), context, params: {} });
    expect(data.profile).toMatchObject({
      fullName: "Dana Reyes",
      specialties: ["Residential", "Luxury", "Land", "Auction"],
      photoUrl: null,
    });
    const text = JSON.stringify(data);
    expect(text).not.toContain("$2");
    expect(text).not.toContain("checked by Sam");
  });
});

describe("a session", () => {
  it("ends 7 days after login, checked on the server whatever the cookie says", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const loginTime = Date.UTC(2025, 2, 1, 9);
    vi.setSystemTime(loginTime);
    const context = testContext();
    const { agent, cookie } = await loggedIn(context);

    vi.setSystemTime(loginTime + SESSION_MAX_AGE_SECONDS * 1000 - 60_000);
    expect((await getMember(getWithCookie("/", cookie), context))?.id).toBe(agent.id);

    vi.setSystemTime(loginTime + SESSION_MAX_AGE_SECONDS * 1000);
    expect(await getMember(getWithCookie("/", cookie), context)).toBeNull();
    const response = await responseOf(() => requireMember(getWithCookie("/member-dashboard", cookie), context));
    expect(response.headers.get("Location")).toBe("/member-login?redirectTo=%2Fmember-dashboard");
    // The stale cookie is cleared on the way.
    expect(response.headers.get("Set-Cookie")).toMatch(/^__session=;/);
  });

  it("ends when the password changes, in every browser", async () => {
    const context = testContext();
    const { agent, cookie } = await loggedIn(context);
    const second = cookieFrom(
      await responseOf(() =>
        loginAction({ request: postForm("/member-login", { email: agent.email, password: PASSWORD }), context, params: {} }),
      ),
    );
    await setNewPassword(context.services, agent, "a brand new password");
    expect(await getMember(getWithCookie("/", cookie), context)).toBeNull();
    expect(await getMember(getWithCookie("/", second), context)).toBeNull();
  });

  it("ends when staff reject the agent or delete the row", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const rejected = await loggedIn(context);
    const deleted = await loggedIn(context);
    await editAgentRow(context, rejected.agent.id, { status: "rejected" });
    await deleteAgentRow(context, deleted.agent.id);
    expect(await getMember(getWithCookie("/", rejected.cookie), context)).toBeNull();
    expect(await getMember(getWithCookie("/", deleted.cookie), context)).toBeNull();
  });

  it("ends on the server at logout: the old cookie stops working at once, here and on another instance", async () => {
    const context = testContext();
    const { agent, cookie } = await loggedIn(context);
    const response = await responseOf(() =>
      logoutAction({
        request: new Request("http://localhost/logout", { method: "POST", headers: { Cookie: cookie } }),
        context,
        params: {},
      }),
    );
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toMatch(/^__session=;/);

    // Someone who copied the cookie before the logout sends it again.
    expect(await getMember(getWithCookie("/", cookie), context)).toBeNull();
    const otherInstance = createStoreFromConfig(context.services.config);
    await otherInstance.refresh();
    try {
      expect(
        await getMember(getWithCookie("/", cookie), { ...context, services: { ...context.services, store: otherInstance } }),
      ).toBeNull();
    } finally {
      await otherInstance.stop();
    }

    // Logging in again works.
    const again = cookieFrom(
      await responseOf(() =>
        loginAction({ request: postForm("/member-login", { email: agent.email, password: PASSWORD }), context, params: {} }),
      ),
    );
    expect((await getMember(getWithCookie("/", again), context))?.id).toBe(agent.id);
  });

  it("is not accepted when tampered with or signed with another secret", async () => {
    const context = testContext();
    const { cookie } = await loggedIn(context);
    const [name, value = ""] = cookie.split("=");
    const tampered = `${name}=${value.slice(0, -3)}abc`;
    expect(await getMember(getWithCookie("/", tampered), context)).toBeNull();
    const otherApp = testContext({}, { SESSION_SECRET: "some-other-secret" });
    expect(
      await getMember(getWithCookie("/", cookie), { ...otherApp, services: { ...otherApp.services, store: context.services.store } }),
    ).toBeNull();
  });
});

describe("a suspension", () => {
  async function loginPageNotice(cookie: string | null): Promise<string | null> {
    const data = await loginLoader({
      request: getWithCookie("/member-login?redirectTo=%2Fmember-dashboard", cookie),
      context: testContext(),
      params: {},
    });
    return data.data.notice;
  }

  it("sends the member's next page to the login page, which says at once that the account is suspended", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const { agent, cookie } = await loggedIn(context);
    await editAgentRow(context, agent.id, { status: "suspended" });

    const response = await responseOf(() => dashboardLoader({ request: getWithCookie("/member-dashboard", cookie), context, params: {} }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/member-login?redirectTo=%2Fmember-dashboard");
    // The session is gone from the cookie; what is left says why, for a minute.
    const notice = cookieFrom(response);
    expect(await getMember(getWithCookie("/", notice), context)).toBeNull();
    expect(response.headers.get("Set-Cookie")).toMatch(/Max-Age=60/i);
    const page = await loginLoader({ request: getWithCookie("/member-login?redirectTo=%2Fmember-dashboard", notice), context, params: {} });
    expect(page.data.notice).toBe(LOGIN_MESSAGES.suspended);

    // Nobody else is told: not without the cookie, nor with a logged-out member's, nor with a made-up one.
    expect(await loginPageNotice(null)).toBeNull();
    expect(await loginPageNotice("__session=eyJlbmRlZEJlY2F1c2UiOiJzdXNwZW5kZWQifQ%3D%3D")).toBeNull();
  });

  it("ends every session for good, on every instance and after a restart", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const { agent, cookie } = await loggedIn(context);
    await editAgentRow(context, agent.id, { status: "suspended" });
    // The instance whose refresh found the suspension ends the sessions at once.
    await vi.waitFor(() => expect(context.services.store.agents.get(agent.id)?.sessionsEndedAt).toBeDefined());
    const endedHere = context.services.store.agents.get(agent.id)!.sessionsEndedAt!;

    // Another instance, started while the agent is suspended, runs its refresh jobs: it ends their sessions too.
    const other = createServices({ ...context.services.config, storeRefreshSeconds: 0.05 });
    try {
      await other.store.refresh();
      other.store.start();
      await vi.waitFor(() => expect(other.store.agents.get(agent.id)?.sessionsEndedAt).not.toBe(endedHere), { timeout: 10_000 });
      const endedAt = other.store.agents.get(agent.id)!.sessionsEndedAt!;
      // Once per suspension: the next passes leave the time alone.
      await other.store.refresh();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(other.store.agents.get(agent.id)?.sessionsEndedAt).toBe(endedAt);

      // Staff restore the agent: the cookie from before the suspension no longer works, here or there.
      await editAgentRow(context, agent.id, { status: "approved" });
      await other.store.refresh();
      expect(await getMember(getWithCookie("/", cookie), context)).toBeNull();
      expect(await getMember(getWithCookie("/", cookie), { ...context, services: other })).toBeNull();
    } finally {
      await stopServices(other);
    }

    // A restarted instance reads the same row.
    const restarted = createServices(context.services.config);
    try {
      await restarted.store.refresh();
      expect(await getMember(getWithCookie("/", cookie), { ...context, services: restarted })).toBeNull();
    } finally {
      await stopServices(restarted);
    }

    // Logging in again works.
    const again = cookieFrom(
      await responseOf(() =>
        loginAction({ request: postForm("/member-login", { email: agent.email, password: PASSWORD }), context, params: {} }),
      ),
    );
    expect((await getMember(getWithCookie("/", again), context))?.id).toBe(agent.id);
  });
});
