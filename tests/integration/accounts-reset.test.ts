import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RESET_LINK_INVALID_MESSAGE } from "../../app/domain/account-messages";
import { LOGIN_MESSAGES } from "../../app/domain/auth";
import { NOTICES } from "../../app/domain/notices";
import { PASSWORD_TOO_SHORT_MESSAGE, PASSWORDS_DIFFER_MESSAGE } from "../../app/domain/registration";
import { action as forgotAction } from "../../app/routes/forgot-password";
import { action as loginAction, loader as loginLoader } from "../../app/routes/member-login";
import { action as resetAction, loader as resetLoader } from "../../app/routes/reset-password";
import { getMember } from "../../app/server/auth/session.server";
import { PRODUCTION_PASSWORD_HASH_COST } from "../../app/server/config.server";
import { startFakeSendgrid } from "../mocks/sendgrid";
import { insertAgent, postForm, testContext, sentMails } from "../support/services";
import { cookieFrom, getWithCookie, responseOf, type ActionReply } from "./accounts-support";

// Each login or new password is a real bcrypt check (at the test cost, decision 0040) on a machine that may be busy.
vi.setConfig({ testTimeout: 30_000 });

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "river crossing 2025";

function outbox(context: AppLoadContext) {
  return sentMails(context.services);
}

async function forgot(context: AppLoadContext, email: string) {
  return (await forgotAction({ request: postForm("/forgot-password", { email }), context, params: {} })) as unknown;
}

async function resetLinkFor(context: AppLoadContext, email: string): Promise<string> {
  await forgot(context, email);
  const mail = (await outbox(context)).find((candidate) => candidate.to === email);
  const link = mail?.text.match(/http:\/\/localhost\/reset-password\?token=[\w.-]+/)?.[0];
  if (!link) throw new Error("No reset link in the member's mail");
  return link;
}

/**
 * Follows the mailed link: the token moves into a cookie for the bare /reset-password
 * address, so it is in no later URL, access log line or Referer. Returns that cookie.
 */
async function openLink(context: AppLoadContext, link: string): Promise<string> {
  const response = await responseOf(() => resetLoader({ request: new Request(link), context, params: {} }));
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/reset-password");
  const header = response.headers.get("Set-Cookie") ?? "";
  expect(header).toMatch(/HttpOnly/i);
  expect(header).toMatch(/Max-Age=3600/);
  return cookieFrom(response);
}

/** What the bare /reset-password page shows with the link's cookie. */
function resetPage(context: AppLoadContext, cookie: string) {
  return resetLoader({ request: getWithCookie("/reset-password", cookie), context, params: {} });
}

/** The cookie a link made of this token would set. */
function tokenCookie(token: string): string {
  return `__reset=${encodeURIComponent(token)}`;
}

async function postNewPassword(context: AppLoadContext, cookie: string, password = NEW_PASSWORD, confirmPassword = password) {
  const request = new Request("http://localhost/reset-password", {
    method: "POST",
    headers: { Cookie: cookie },
    body: new URLSearchParams({ password, confirmPassword }),
  });
  return (await resetAction({ request, context, params: {} })) as unknown;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("forgot password", () => {
  it("mails a reset link to the member and the product's notice to staff, with no password in either", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { fullName: "Dana Reyes", password: PASSWORD });
    expect(await forgot(context, agent.email.toUpperCase())).toEqual({ sent: agent.email });

    const mails = await outbox(context);
    expect(mails.map((mail) => mail.to).sort()).toEqual([agent.email, "support@example.test"].sort());
    const notice = mails.find((mail) => mail.to === "support@example.test");
    expect(notice?.text).toContain("Name: Password Reset Request");
    expect(notice?.text).toContain("Category: Password Reset");
    expect(notice?.text).toContain(`Email: ${agent.email}`);
    expect(notice?.text).not.toContain("token=");
    for (const mail of mails) {
      expect(mail.text + mail.html).not.toContain(PASSWORD);
      expect(mail.text + mail.html).not.toContain(agent.passwordHash);
    }
  });

  it("answers an unknown address exactly like a known one, telling only staff", async () => {
    const context = testContext();
    expect(await forgot(context, "nobody@example.com")).toEqual({ sent: "nobody@example.com" });
    const mails = await outbox(context);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe("support@example.test");
    expect(mails[0]?.text).toContain("No account uses this email address");
  });

  // Decision 0036: the answer never waits for the mails, so it cannot differ with the address or the mail's fate.
  it("answers a refused mail (a revoked key) like a sent one, and logs the failure for staff", async () => {
    const sendgrid = await startFakeSendgrid("SG.current-key");
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const context = testContext({}, { SENDGRID_API_KEY: "SG.revoked-key", SENDGRID_API_URL: sendgrid.url });
      expect(await forgot(context, "dana@example.com")).toEqual({ sent: "dana@example.com" });
      await context.services.notifier.idle();
      expect(sendgrid.mails).toEqual([]);
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining("a password reset request's notice to staff could not be sent"),
        expect.objectContaining({ message: "SendGrid refused the mail: status 401" }),
      );
    } finally {
      logged.mockRestore();
      await sendgrid.close();
    }
  });

  it("refuses a fourth request for one address within the hour", async () => {
    const context = testContext();
    for (let i = 0; i < 3; i += 1) expect(await forgot(context, "dana@example.com")).toEqual({ sent: "dana@example.com" });
    const refused = (await forgot(context, "dana@example.com")) as ActionReply;
    expect(refused.init?.status).toBe(429);
    expect(refused.data.error?.[""]?.[0]).toMatch(/^Too many password reset requests\. Please wait \d+ minutes and try again\.$/);
  });

  it("answers bad input with the product's messages", async () => {
    const result = (await forgot(testContext(), "not-an-address")) as ActionReply;
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.email).toEqual(["Please enter a valid email address"]);
  });
});

describe("reset password", () => {
  it("sets the new password once: the old one and other sessions stop working, the link dies", async () => {
    // At production's cost, as the stored hash shows.
    const context = testContext({}, { PASSWORD_HASH_COST: String(PRODUCTION_PASSWORD_HASH_COST) });
    const agent = await insertAgent(context, { password: PASSWORD });
    const session = cookieFrom(
      await responseOf(() =>
        loginAction({ request: postForm("/member-login", { email: agent.email, password: PASSWORD }), context, params: {} }),
      ),
    );
    const link = await resetLinkFor(context, agent.email);
    const cookie = await openLink(context, link);
    expect(await resetPage(context, cookie)).toEqual({ email: agent.email });

    const response = await responseOf(() => postNewPassword(context, cookie));
    expect(response.headers.get("Location")).toBe("/member-login");
    const cookies = response.headers.getSetCookie();
    // The used token's cookie is cleared.
    expect(cookies.filter((set) => /^__reset=;/.test(set))).toHaveLength(1);
    // The login page says the password changed once, from the flash cookie the save set.
    const flash = cookies.find((set) => set.startsWith("__flash="))?.split(";")[0] ?? null;
    const loginPage = await loginLoader({ request: getWithCookie("/member-login", flash), context, params: {} });
    expect(loginPage.data.passwordChanged).toBe(NOTICES.passwordChanged);
    expect((await loginLoader({ request: getWithCookie("/member-login", null), context, params: {} })).data.passwordChanged).toBeNull();

    const stored = context.services.store.agents.get(agent.id);
    expect(stored?.passwordHash).not.toBe(agent.passwordHash);
    expect(stored?.passwordHash).toMatch(/^\$2[aby]\$12\$/);
    expect(stored?.updatedAt).toBeDefined();
    expect(await getMember(getWithCookie("/", session), context)).toBeNull();

    const oldPassword = (await loginAction({
      request: postForm("/member-login", { email: agent.email, password: PASSWORD }),
      context,
      params: {},
    })) as unknown as ActionReply;
    expect(oldPassword.data.error?.[""]).toEqual([LOGIN_MESSAGES.wrongPassword]);
    const newLogin = await responseOf(() =>
      loginAction({ request: postForm("/member-login", { email: agent.email, password: NEW_PASSWORD }), context, params: {} }),
    );
    expect(newLogin.headers.get("Location")).toBe("/member-dashboard");

    expect(await resetPage(context, await openLink(context, link))).toEqual({ email: null });
    const reused = (await postNewPassword(context, cookie, "yet another password")) as ActionReply;
    expect(reused.init?.status).toBe(400);
    expect(reused.data.error?.[""]).toEqual([RESET_LINK_INVALID_MESSAGE]);
  });

  it("checks the length and the confirmation, never echoing a password", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const cookie = await openLink(context, await resetLinkFor(context, agent.email));
    const short = (await postNewPassword(context, cookie, "short")) as ActionReply;
    expect(short.init?.status).toBe(400);
    expect(short.data.error?.password).toEqual([PASSWORD_TOO_SHORT_MESSAGE]);
    const differ = (await postNewPassword(context, cookie, NEW_PASSWORD, "something else")) as ActionReply;
    expect(differ.data.error?.confirmPassword).toEqual([PASSWORDS_DIFFER_MESSAGE]);
    expect(JSON.stringify(differ)).not.toContain(NEW_PASSWORD);
    expect(context.services.store.agents.get(agent.id)?.passwordHash).toBe(agent.passwordHash);
  });

  it("refuses a link older than one hour", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2025, 4, 1, 8);
    vi.setSystemTime(start);
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const cookie = await openLink(context, await resetLinkFor(context, agent.email));
    vi.setSystemTime(start + 59 * 60_000);
    expect((await resetPage(context, cookie)).email).toBe(agent.email);
    vi.setSystemTime(start + 60 * 60_000);
    expect((await resetPage(context, cookie)).email).toBeNull();
    const late = (await postNewPassword(context, cookie)) as ActionReply;
    expect(late.data.error?.[""]).toEqual([RESET_LINK_INVALID_MESSAGE]);
  });

  it("refuses a made-up token", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const forged = `${Buffer.from(agent.id).toString("base64url")}.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    expect((await postNewPassword(context, tokenCookie(forged))) as ActionReply).toMatchObject({
      data: { error: { "": [RESET_LINK_INVALID_MESSAGE] } },
    });
    expect((await postNewPassword(context, "")) as ActionReply).toMatchObject({ data: { error: { "": [RESET_LINK_INVALID_MESSAGE] } } });
  });
});
