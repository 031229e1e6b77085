import type { AppLoadContext } from "@remix-run/node";
import type { Agent, ReferralRequest } from "../../app/domain/workbook/tabs";
import { startMemberSession } from "../../app/server/auth/session.server";
import { requestRecord } from "../support/records";

/** The Cookie header of a logged-in session for the agent. */
export async function sessionCookie(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/member-dashboard");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
}

export function get(url: string, cookie: string): Request {
  return new Request(`http://localhost${url}`, { headers: { Cookie: cookie } });
}

export function post(url: string, cookie: string, fields: Record<string, string>): Request {
  return new Request(`http://localhost${url}`, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(fields) });
}

/** What a loader or action returned or threw, as a Response when it was one. */
export async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export type Rejection = { init: ResponseInit | null; data: { initialValue?: Record<string, unknown>; error?: Record<string, string[]> } };

/** Stores a request row as another process or staff would have written it. */
export function insertRequest(context: AppLoadContext, owner: Agent, fields: Partial<ReferralRequest> = {}): Promise<ReferralRequest> {
  return context.services.store.requests.insert(requestRecord(owner, fields));
}
