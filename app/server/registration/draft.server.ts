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

const storages = new WeakMap<Config, SessionStorage<DraftSessionData>>();

function draftStorage(config: Config): SessionStorage<DraftSessionData> {
  let storage = storages.get(config);
  if (!storage) {
    storage = createCookieSessionStorage<DraftSessionData>({
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
    storages.set(config, storage);
  }
  return storage;
}

/** The draft the request carries, or null when there is none (or it no longer fits the current shape). */
export async function readDraft(request: Request, config: Config): Promise<RegistrationDraft | null> {
  const session = await draftStorage(config).getSession(request.headers.get("Cookie"));
  const parsed = registrationDraftSchema.safeParse(session.get("draft"));
  return parsed.success ? parsed.data : null;
}

/** The Set-Cookie header value that stores the draft. */
export async function saveDraft(draft: RegistrationDraft, config: Config): Promise<string> {
  const storage = draftStorage(config);
  const session = await storage.getSession();
  session.set("draft", draft);
  return storage.commitSession(session);
}

/** The Set-Cookie header value that removes the draft once the profile is created. */
export async function clearDraft(request: Request, config: Config): Promise<string> {
  const storage = draftStorage(config);
  return storage.destroySession(await storage.getSession(request.headers.get("Cookie")));
}
