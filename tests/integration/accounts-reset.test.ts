import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOGIN_MESSAGES, RESET_LINK_INVALID_MESSAGE } from "../../app/domain/auth";
import { PASSWORD_TOO_SHORT_MESSAGE, PASSWORDS_DIFFER_MESSAGE } from "../../app/domain/registration";
import { action as forgotAction } from "../../app/routes/forgot-password";
import { action as loginAction } from "../../app/routes/member-login";
import { action as resetAction, loader as resetLoader } from "../../app/routes/reset-password";
import { getMember } from "../../app/server/auth/session.server";
import { MailError, readOutbox, type Mailer } from "../../app/server/mail/mailer.server";
import { insertAgent, postForm, testContext } from "../support/services";
import { cookieFrom, getWithCookie, responseOf, type ActionReply } from "./accounts-support";

// Each login or new password is a real bcrypt check at cost 12: seconds per test on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "river crossing 2025";

function outbox(context: AppLoadContext) {
  return readOutbox(path.join(context.services.config.dataDir, "outbox"));
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

function tokenOf(link: string): string {
  return new URL(link).searchParams.get("token") ?? "";
}

async function postNewPassword(context: AppLoadContext, token: string, password = NEW_PASSWORD, confirmPassword = password) {
  return (await resetAction({ request: postForm("/reset-password", { token, password, confirmPassword }), context, params: {} })) as unknown;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("forgot password", () => {
  it("mails a reset link to the member and the spec's notice to staff, with no password in either", async () => {
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

  it("says so when the mail cannot be sent, keeping the address", async () => {
    const failing: Mailer = { driver: "sendgrid", send: () => Promise.reject(new MailError("down")) };
    const result = (await forgot(testContext({ mailer: failing }), "dana@example.com")) as ActionReply;
    expect(result.init?.status).toBe(503);
    expect(result.data.error?.[""]).toEqual(["Failed to send password reset request. Please try contacting support directly at support@example.test"]);
    expect(result.data.initialValue?.email).toBe("dana@example.com");
  });

  it("refuses a fourth request for one address within the hour", async () => {
    const context = testContext();
    for (let i = 0; i < 3; i += 1) expect(await forgot(context, "dana@example.com")).toEqual({ sent: "dana@example.com" });
    const refused = (await forgot(context, "dana@example.com")) as ActionReply;
    expect(refused.init?.status).toBe(429);
    expect(refused.data.error?.[""]?.[0]).toMatch(/^Too many password reset requests\. Please wait \d+ minutes and try again\.$/);
  });

  it("answers bad input with the spec's messages", async () => {
    const result = (await forgot(testContext(), "not-an-address")) as ActionReply;
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.email).toEqual(["Please enter a valid email address"]);
  });
});

describe("reset password", () => {
  it("sets the new password once: the old one and other sessions stop working, the link dies", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const session = cookieFrom(
      await responseOf(() => loginAction({ request: postForm("/member-login", { email: agent.email, password: PASSWORD }), context, params: {} })),
    );
    const link = await resetLinkFor(context, agent.email);
    expect(await resetLoader({ request: new Request(link), context, params: {} })).toEqual({ token: tokenOf(link), email: agent.email });

    const response = await responseOf(() => postNewPassword(context, tokenOf(link)));
    expect(response.headers.get("Location")).toBe("/member-login?password-changed=1");

    const stored = context.services.store.agents.get(agent.id);
    expect(stored?.passwordHash).not.toBe(agent.passwordHash);
    expect(stored?.passwordHash).toMatch(/^\$2[aby]\$12\$/);
    expect(stored?.updatedAt).toBeDefined();
    expect(await getMember(getWithCookie("/", session), context)).toBeNull();

    const oldPassword = (await loginAction({ request: postForm("/member-login", { email: agent.email, password: PASSWORD }), context, params: {} })) as unknown as ActionReply;
    expect(oldPassword.data.error?.[""]).toEqual([LOGIN_MESSAGES.wrongPassword]);
    const newLogin = await responseOf(() => loginAction({ request: postForm("/member-login", { email: agent.email, password: NEW_PASSWORD }), context, params: {} }));
    expect(newLogin.headers.get("Location")).toBe("/member-dashboard");

    expect(await resetLoader({ request: new Request(link), context, params: {} })).toEqual({ token: null, email: null });
    const reused = (await postNewPassword(context, tokenOf(link), "yet another password")) as ActionReply;
    expect(reused.init?.status).toBe(400);
    expect(reused.data.error?.[""]).toEqual([RESET_LINK_INVALID_MESSAGE]);
  });

  it("checks the length and the confirmation, never echoing a password", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const token = tokenOf(await resetLinkFor(context, agent.email));
    const short = (await postNewPassword(context, token, "short")) as ActionReply;
    expect(short.init?.status).toBe(400);
    expect(short.data.error?.password).toEqual([PASSWORD_TOO_SHORT_MESSAGE]);
    const differ = (await postNewPassword(context, token, NEW_PASSWORD, "something else")) as ActionReply;
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
    const link = await resetLinkFor(context, agent.email);
    vi.setSystemTime(start + 59 * 60_000);
    expect((await resetLoader({ request: new Request(link), context, params: {} })).token).not.toBeNull();
    vi.setSystemTime(start + 60 * 60_000);
    expect((await resetLoader({ request: new Request(link), context, params: {} })).token).toBeNull();
    const late = (await postNewPassword(context, tokenOf(link))) as ActionReply;
    expect(late.data.error?.[""]).toEqual([RESET_LINK_INVALID_MESSAGE]);
  });

  it("refuses a made-up token", async () => {
    const context = testContext();
    const agent = await insertAgent(context, { password: PASSWORD });
    const forged = `${Buffer.from(agent.id).toString("base64url")}.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    expect((await postNewPassword(context, forged)) as ActionReply).toMatchObject({ data: { error: { "": [RESET_LINK_INVALID_MESSAGE] } } });
  });
});
