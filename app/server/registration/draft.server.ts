import { randomUUID } from "node:crypto";
import { createCookieSessionStorage, type SessionStorage } from "@remix-run/node";
import { registrationDraftSchema, type RegistrationDraft } from "~/domain/registration";
import type { Config } from "../config.server";

/**
 * The registration flow's draft (the quick-registration fields and the VIP code)
 * travels between its screens in a signed, httpOnly cookie: the server is the
 * only one that writes it, and nothing stays in the browser's storage.
 */
const DRAFT_COOKIE_NAME = "__registration";
const DRAFT_MAX_AGE_SECONDS = 24 * 60 * 60;

type DraftSessionData = { draft: unknown };

/** The draft cookie's signing and settings: one per process, in `Services`. */
export type DraftStorage = SessionStorage<DraftSessionData>;

/** What reading and writing the draft takes: the draft cookie's storage, as `Services` holds it. */
type Drafts = { drafts: DraftStorage };

export function createDraftStorage(config: Pick<Config, "isProduction" | "sessionSecrets">): DraftStorage {
  return createCookieSessionStorage<DraftSessionData>({
    cookie: {
      name: DRAFT_COOKIE_NAME,
      httpOnly: true,
      sameSite: "lax",
      secure: config.isProduction,
      path: "/",
      maxAge: DRAFT_MAX_AGE_SECONDS,
      secrets: config.sessionSecrets,
    },
  });
}

/** The draft the request carries, or null when there is none (or it no longer fits the current shape). */
export async function readDraft({ drafts }: Drafts, request: Request): Promise<RegistrationDraft | null> {
  const session = await drafts.getSession(request.headers.get("Cookie"));
  const parsed = registrationDraftSchema.safeParse(session.get("draft"));
  return parsed.success ? parsed.data : null;
}

/** The Set-Cookie header value that stores the draft. */
export async function saveDraft({ drafts }: Drafts, draft: RegistrationDraft): Promise<string> {
  const session = await drafts.getSession();
  session.set("draft", { ...draft, key: draft.key ?? randomUUID() });
  return drafts.commitSession(session);
}

/** The Set-Cookie header value that removes the draft once the profile is created. */
export async function clearDraft({ drafts }: Drafts, request: Request): Promise<string> {
  return drafts.destroySession(await drafts.getSession(request.headers.get("Cookie")));
}
