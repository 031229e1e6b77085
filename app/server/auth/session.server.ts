import { createCookieSessionStorage, redirect, type AppLoadContext, type Session, type SessionStorage } from "@remix-run/node";
import { LOGIN_MESSAGES } from "~/domain/auth";
import type { Agent } from "~/domain/workbook/tabs";
import type { Config } from "../config.server";
import { matchesPasswordFingerprint, passwordFingerprint } from "./signing.server";

/** A login session lasts 7 days (docs/product.md#sessions-and-login) from the moment of login, whatever happens in between. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_COOKIE_NAME = "__session";

type MemberSessionData = {
  agentId: string;
  /** Milliseconds since the epoch; the server ends the session 7 days after it. */
  loginAt: number;
  /** Fingerprint of the password hash at login: a changed password ends the session. */
  passwordFingerprint: string;
  /** In a cookie with no session in it: why the last one ended, for the login page to say. */
  endedBecause: "suspended";
};

export type MemberSessionStorage = SessionStorage<Partial<MemberSessionData>>;
type MemberSession = Session<Partial<MemberSessionData>>;

export function createMemberSessionStorage(config: Pick<Config, "sessionSecrets" | "isProduction">): MemberSessionStorage {
  return createCookieSessionStorage<Partial<MemberSessionData>>({
    cookie: {
      name: SESSION_COOKIE_NAME,
      httpOnly: true,
      sameSite: "lax",
      secure: config.isProduction,
      path: "/",
      maxAge: SESSION_MAX_AGE_SECONDS,
      secrets: config.sessionSecrets,
    },
  });
}

function readSession(request: Request, context: AppLoadContext): Promise<MemberSession> {
  return context.services.auth.sessions.getSession(request.headers.get("Cookie"));
}

/** The session's agent and whether the session is still theirs: null when it is not a session, or it expired or was forged. */
function sessionAgent(session: MemberSession, context: AppLoadContext, now: number) {
  const { agentId, loginAt, passwordFingerprint: fingerprint } = session.data;
  if (typeof agentId !== "string" || typeof loginAt !== "number" || typeof fingerprint !== "string") return null;
  if (now < loginAt || now - loginAt >= SESSION_MAX_AGE_SECONDS * 1000) return null;
  const agent = context.services.store.agents.get(agentId);
  if (!agent || !matchesPasswordFingerprint(context.services.config.sessionSecrets, agent.passwordHash, fingerprint)) return null;
  return { agent, loginAt };
}

/** The approved agent the session belongs to, or null. */
function memberOf(session: MemberSession, context: AppLoadContext, now = Date.now()): Agent | null {
  const found = sessionAgent(session, context, now);
  if (!found || found.agent.status !== "approved") return null;
  const { agent, loginAt } = found;
  if (agent.sessionsEndedAt !== undefined && loginAt <= Date.parse(agent.sessionsEndedAt)) return null;
  return agent;
}

/**
 * True when the session's agent is suspended. Their sessions are also ended for good
 * (docs/decisions/0033), so this looks past `sessionsEndedAt`: it only tells the holder
 * of their own signed cookie why they were logged out.
 */
function isSuspendedSession(session: MemberSession, context: AppLoadContext): boolean {
  return sessionAgent(session, context, Date.now())?.agent.status === "suspended";
}

/** The login page's notice lives this long: it explains the redirect that set it, not a later visit. */
const NOTICE_MAX_AGE_SECONDS = 60;

/** A cookie holding no session, only the reason the last one ended. */
async function suspensionNotice(sessions: MemberSessionStorage): Promise<string> {
  const notice = await sessions.getSession();
  notice.set("endedBecause", "suspended");
  return sessions.commitSession(notice, { maxAge: NOTICE_MAX_AGE_SECONDS });
}

/** What the login page says first when the member's session just ended for a reason: staff suspended the account. */
export async function endedSessionNotice(request: Request, context: AppLoadContext): Promise<string | null> {
  const session = await readSession(request, context);
  return session.get("endedBecause") === "suspended" ? LOGIN_MESSAGES.suspended : null;
}

/**
 * The logged-in member, re-checked against the store on every call: null when there
 * is no session, it is 7 days old, or the agent was deleted, is no longer approved,
 * changed password or logged out since logging in.
 */
export async function getMember(request: Request, context: AppLoadContext): Promise<Agent | null> {
  return memberOf(await readSession(request, context), context);
}

/**
 * The logged-in member, or a thrown redirect to the login page that brings them back
 * here afterwards. A stale session cookie is cleared on the way; a suspended member's is
 * replaced by a notice, so the login page says at once why they were logged out.
 */
export async function requireMember(request: Request, context: AppLoadContext): Promise<Agent> {
  const session = await readSession(request, context);
  const member = memberOf(session, context);
  if (member) return member;
  const url = new URL(request.url);
  const login = `/member-login?${new URLSearchParams({ redirectTo: url.pathname + url.search })}`;
  const headers = new Headers();
  if (isSuspendedSession(session, context)) headers.append("Set-Cookie", await suspensionNotice(context.services.auth.sessions));
  else if (session.has("agentId")) headers.append("Set-Cookie", await context.services.auth.sessions.destroySession(session));
  throw redirect(login, { headers });
}

/** Logs the agent in (a fresh session, whatever the browser sent) and redirects. */
export async function startMemberSession(_request: Request, context: AppLoadContext, agent: Agent, redirectTo: string): Promise<Response> {
  const { sessions } = context.services.auth;
  // A new session rather than the request's: nothing from before the login carries over.
  const session = await sessions.getSession();
  session.set("agentId", agent.id);
  session.set("loginAt", Date.now());
  session.set("passwordFingerprint", passwordFingerprint(context.services.config.sessionSecrets, agent.passwordHash));
  return redirect(redirectTo, { headers: { "Set-Cookie": await sessions.commitSession(session) } });
}

/**
 * Ends the member's sessions on the server, so a copy of the cookie stops working too
 * (in every browser: see docs/decisions/0007), then clears the cookie and goes home.
 */
export async function endMemberSession(request: Request, context: AppLoadContext): Promise<Response> {
  const { sessions } = context.services.auth;
  const session = await readSession(request, context);
  const member = memberOf(session, context);
  if (member) {
    try {
      await context.services.store.agents.update(member.id, { sessionsEndedAt: new Date().toISOString() });
    } catch (error) {
      console.error(`Logout: the end of agent ${member.id}'s sessions could not be stored; only this browser's cookie is cleared.`, error);
    }
  }
  return redirect("/", { headers: { "Set-Cookie": await sessions.destroySession(session) } });
}
