import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { LOGIN_MESSAGES } from "../../app/domain/auth";
import { action as logoutAction, loader as logoutLoader } from "../../app/routes/logout";
import { action as loginAction, loader as loginLoader } from "../../app/routes/member-login";
import { loader as rootLoader } from "../../app/root";
import { getMember } from "../../app/server/auth/session.server";
import { StoreWriteError } from "../../app/server/store/store.server";
import { insertAgent, postForm, testContext } from "../support/services";
import { cookieFrom, editAgentRow, getWithCookie, responseOf, type ActionReply } from "./accounts-support";

// Each login or new password is a real bcrypt check (at the test cost, decision 0040) on a machine that may be busy.
vi.setConfig({ testTimeout: 30_000 });

const PASSWORD = "correct horse battery";

async function logIn(context: AppLoadContext, fields: Record<string, string>, url = "/member-login") {
  return loginAction({ request: postForm(url, fields), context, params: {} }) as Promise<unknown>;
}

function reply(result: unknown): ActionReply {
  return result as ActionReply;
}

describe("login refusals", () => {
  it.each([
    ["no e-mail", { password: PASSWORD }],
    ["no password", { email: "dana@example.com" }],
  ])("asks for both fields with %s", async (_label, fields) => {
    const result = reply(await logIn(testContext(), fields));
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.[""]).toEqual([LOGIN_MESSAGES.required]);
  });

  it("says when no account uses the address, keeping the e-mail and dropping the password", async () => {
    const result = reply(await logIn(testContext(), { email: "Nobody@Example.com", password: PASSWORD }));
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.[""]).toEqual([LOGIN_MESSAGES.noAccount]);
    expect(result.data.initialValue?.email).toBe("Nobody@Example.com");
    expect(result.data.initialValue).not.toHaveProperty("password");
  });

  it("says the password is wrong", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const result = reply(await logIn(context, { email: agent.email, password: "not it at all" }));
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.[""]).toEqual([LOGIN_MESSAGES.wrongPassword]);
    expect(JSON.stringify(result)).not.toContain("not it at all");
  });

  it("refuses a pending account until staff approve the row, then logs in", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const agent = await insertAgent(context, { status: "pending", password: PASSWORD });
    const refused = reply(await logIn(context, { email: agent.email, password: PASSWORD }));
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error?.[""]).toEqual([LOGIN_MESSAGES.pending]);

    await editAgentRow(context, agent.id, { status: "Approved " });
    const response = await responseOf(() => logIn(context, { email: agent.email, password: PASSWORD }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/member-dashboard");
  });

  it("refuses a rejected account", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { status: "rejected", statusNote: "License not found", password: PASSWORD });
    const result = reply(await logIn(context, { email: agent.email, password: PASSWORD }));
    expect(result.data.error?.[""]).toEqual([LOGIN_MESSAGES.rejected]);
  });

  it("tells the pending status only to someone who knows the password", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { status: "pending", password: PASSWORD });
    const result = reply(await logIn(context, { email: agent.email, password: "guessing" }));
    expect(result.data.error?.[""]).toEqual([LOGIN_MESSAGES.wrongPassword]);
  });

  it("answers a store failure with the product's general message and status 500", async () => {
    const context = testContext();
    const broken = {
      ...context.services.store,
      agents: {
        ...context.services.store.agents,
        by: () => {
          throw new StoreWriteError("Agents", { cause: new Error("disk gone") });
        },
      },
    };
    const result = reply(
      await logIn({ ...context, services: { ...context.services, store: broken } }, { email: "a@example.com", password: "x" }),
    );
    expect(result.init?.status).toBe(500);
    expect(result.data.error?.[""]).toEqual([LOGIN_MESSAGES.failed]);
  });
});

describe("login rate limits", () => {
  it("refuses the 11th attempt on one e-mail within 15 minutes with 429", async () => {
    const context = testContext();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(reply(await logIn(context, { email: "target@example.com", password: `guess ${attempt}` })).init?.status).toBe(400);
    }
    const refused = reply(await logIn(context, { email: "target@example.com", password: "guess 11" }));
    expect(refused.init?.status).toBe(429);
    expect(refused.data.error?.[""]).toEqual(["Too many login attempts. Please wait 15 minutes and try again."]);
    expect(refused.data.initialValue?.email).toBe("target@example.com");
    // 15 minutes from the first attempt, less the time the ten bcrypt checks took.
    const retryAfter = Number(new Headers(refused.init?.headers).get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Another address from another client is not affected.
    expect(reply(await logIn({ ...context, clientIp: "203.0.113.9" }, { email: "other@example.com", password: "x" })).init?.status).toBe(
      400,
    );
  });

  it("refuses one IP address past AUTH_ATTEMPTS_PER_IP, whatever the e-mail", async () => {
    const context = { ...testContext({}, { AUTH_ATTEMPTS_PER_IP: "2" }), clientIp: "198.51.100.7" };
    await logIn(context, { email: "a@example.com", password: "x" });
    await logIn(context, { email: "b@example.com", password: "x" });
    expect(reply(await logIn(context, { email: "c@example.com", password: "x" })).init?.status).toBe(429);
    expect(reply(await logIn({ ...context, clientIp: "198.51.100.8" }, { email: "c@example.com", password: "x" })).init?.status).toBe(400);
  });
});

describe("login rate limits count failures, per address and per e-mail from that address", () => {
  it("never counts a successful login toward the address's limit", async () => {
    const context = { ...testContext({}, { AUTH_ATTEMPTS_PER_IP: "2" }), clientIp: "198.51.100.30" };
    const agent = await insertAgent(context, { password: PASSWORD });
    // One office, many members: a successful login costs nothing.
    for (let login = 0; login < 4; login += 1) {
      expect((await responseOf(() => logIn(context, { email: agent.email, password: PASSWORD }))).status).toBe(302);
    }
    await logIn(context, { email: agent.email, password: "wrong" });
    await logIn(context, { email: "nobody@example.com", password: "wrong" });
    expect(reply(await logIn(context, { email: agent.email, password: PASSWORD })).init?.status).toBe(429);
  });

  it("locks an e-mail only for the address that guessed: the owner elsewhere still logs in", async () => {
    const context = testContext({}, { LOGIN_FAILURES_PER_EMAIL_AND_IP: "3" });
    const agent = await insertAgent(context, { password: PASSWORD });
    const attacker = { ...context, clientIp: "203.0.113.66" };
    for (let guess = 0; guess < 3; guess += 1) {
      expect(reply(await logIn(attacker, { email: agent.email, password: `guess ${guess}` })).init?.status).toBe(400);
    }
    expect(reply(await logIn(attacker, { email: agent.email, password: PASSWORD })).init?.status).toBe(429);
    const owner = { ...context, clientIp: "198.51.100.31" };
    expect((await responseOf(() => logIn(owner, { email: agent.email, password: PASSWORD }))).status).toBe(302);
  });
});

describe("login success", () => {
  it("starts a session the next request is recognised by, and the header learns the name", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { fullName: "Dana Reyes", password: PASSWORD });
    const response = await responseOf(() => logIn(context, { email: ` ${agent.email.toUpperCase()} `, password: PASSWORD }));
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^__session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=604800/);
    expect(setCookie).not.toMatch(/Secure/i);

    const cookie = cookieFrom(response);
    expect((await getMember(getWithCookie("/", cookie), context))?.id).toBe(agent.id);
    expect(await rootLoader({ request: getWithCookie("/", cookie), context, params: {} })).toMatchObject({
      member: { fullName: "Dana Reyes" },
    });
    expect(await rootLoader({ request: getWithCookie("/", null), context, params: {} })).toMatchObject({ member: null });
  });

  it("marks the cookie Secure in production", async () => {
    const context = testContext(
      {},
      { NODE_ENV: "production", SESSION_SECRET: "a-production-secret-long-enough", APP_URL: "https://referrals.example" },
    );
    const agent = await insertAgent(context, { password: PASSWORD });
    const response = await responseOf(() => logIn(context, { email: agent.email, password: PASSWORD }));
    expect(response.headers.get("Set-Cookie")).toMatch(/; Secure/i);
  });

  it("returns to a same-site redirectTo and ignores any other", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const back = await responseOf(() => logIn(context, { email: agent.email, password: PASSWORD, redirectTo: "/messages?to=x" }));
    expect(back.headers.get("Location")).toBe("/messages?to=x");
    for (const redirectTo of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
      const response = await responseOf(() => logIn(context, { email: agent.email, password: PASSWORD, redirectTo }));
      expect(response.headers.get("Location")).toBe("/member-dashboard");
    }
  });

  it("sends a logged-in member straight on from the login page", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const cookie = cookieFrom(await responseOf(() => logIn(context, { email: agent.email, password: PASSWORD })));
    const response = await responseOf(() =>
      loginLoader({ request: getWithCookie("/member-login?redirectTo=%2Fedit-profile", cookie), context, params: {} }),
    );
    expect(response.headers.get("Location")).toBe("/edit-profile");
    expect(
      (await loginLoader({ request: getWithCookie("/member-login?redirectTo=%2F%2Fevil.example", null), context, params: {} })).data,
    ).toEqual({
      redirectTo: null,
      passwordChanged: null,
      notice: null,
      founderOffer: true,
    });
  });
});

describe("logout", () => {
  it("clears the session on POST and goes home", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const cookie = cookieFrom(await responseOf(() => logIn(context, { email: agent.email, password: PASSWORD })));
    const request = new Request("http://localhost/logout", { method: "POST", headers: { Cookie: cookie } });
    const response = await responseOf(() => logoutAction({ request, context, params: {} }));
    expect(response.headers.get("Location")).toBe("/");
    const cleared = cookieFrom(response);
    expect(cleared).toBe("__session=");
    expect(response.headers.get("Set-Cookie")).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await getMember(getWithCookie("/", cleared), context)).toBeNull();
  });

  it("does nothing on GET but send the visitor home", async () => {
    const response = await responseOf(() => logoutLoader());
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });
});
