import type { AppLoadContext } from "@remix-run/node";
import sharp from "sharp";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { NOTICES } from "../../app/domain/notices";
import type { Agent } from "../../app/domain/workbook/tabs";
import { action, loader } from "../../app/routes/edit-profile";
import { startMemberSession } from "../../app/server/auth/session.server";
import { StoreWriteError } from "../../app/server/store/store.server";
import { insertAgent, testContext } from "../support/services";

const PASSWORD = "correct horse battery";

type DataReply = {
  data: { initialValue: Record<string, unknown> | null; error?: Record<string, string[] | null> };
  init: ResponseInit | null;
};

async function call<T>(run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function loginCookie(context: AppLoadContext, agent: Agent): Promise<string> {
  const response = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/member-dashboard");
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
}

function save(fields: Record<string, string | string[] | File>, cookie: string): Request {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return new Request("http://localhost/edit-profile", { method: "POST", body, headers: { Cookie: cookie } });
}

const changes = {
  fullName: "Dana Reyes-Ortiz",
  phone: "918 555 0142",
  city: "Tulsa",
  state: "OK",
  brokerage: "Red River Realty",
  brokerLicenseNumber: "0456789",
  specialties: ["Land", "Auction"],
  bio: "Now in Tulsa.",
  photoUrl: "https://images.example/dana.jpg",
};

let context: AppLoadContext;
let agent: Agent;
let cookie: string;

beforeEach(async () => {
  context = testContext();
  await context.services.store.refresh();
  agent = await insertAgent(context, { password: PASSWORD });
  cookie = await loginCookie(context, agent);
});

// bcrypt is slow on purpose, even at the test cost (decision 0040): a busy machine slows ten password checks.
describe("edit profile", { timeout: 30_000 }, () => {
  it("needs a login, for the page and for saving", async () => {
    const page = await call(() => loader({ request: new Request("http://localhost/edit-profile"), context, params: {} }));
    expect((page as Response).headers.get("Location")).toBe("/member-login?redirectTo=%2Fedit-profile");
    const post = await call(() => action({ request: save({ ...changes, password: PASSWORD }, ""), context, params: {} }));
    expect((post as Response).headers.get("Location")).toMatch(/^\/member-login\?/);
    expect(context.services.store.agents.get(agent.id)?.city).toBe("Dallas");
  });

  it("opens with the current profile", async () => {
    const page = await loader({
      request: new Request("http://localhost/edit-profile", { headers: { Cookie: cookie } }),
      context,
      params: {},
    });
    expect(page.data.profile).toMatchObject({ fullName: "Dana Reyes", email: agent.email, city: "Dallas", specialties: ["Residential"] });
    expect(page.data.saved).toBeNull();
    expect(JSON.stringify(page)).not.toContain("$2");
  });

  it("saves the changes after the password check and shows the success banner", async () => {
    // The linked photo is fetched once and the app keeps its own copy (tests/security/photo-link.test.ts covers the fetch).
    const linked = await sharp({ create: { width: 200, height: 200, channels: 3, background: "#888888" } })
      .jpeg()
      .toBuffer();
    context.services.photoFetcher = async (link) =>
      link === changes.photoUrl ? { ok: true, bytes: linked } : { ok: false, reason: "unreachable" };
    const result = await call(() => action({ request: save({ ...changes, password: PASSWORD }, cookie), context, params: {} }));
    expect((result as Response).headers.get("Location")).toBe("/edit-profile");
    expect(context.services.store.agents.get(agent.id)).toMatchObject({
      fullName: "Dana Reyes-Ortiz",
      phone: "(918) 555-0142",
      city: "Tulsa",
      state: "OK",
      brokerLicenseNumber: "0456789",
      specialties: ["Land", "Auction"],
      bio: "Now in Tulsa.",
      photoUrl: expect.stringMatching(/^\/uploads\/profile-[0-9a-f-]+\.jpg$/),
      passwordHash: agent.passwordHash,
      status: "approved",
    });
    // The banner rides in the flash cookie the save set, shown by the next load only (docs/decisions/0064).
    const flash = (result as Response).headers.get("Set-Cookie")?.split(";")[0];
    const page = await loader({
      request: new Request("http://localhost/edit-profile", { headers: { Cookie: `${cookie}; ${flash}` } }),
      context,
      params: {},
    });
    expect(page.data).toMatchObject({ saved: "Profile updated and refreshed successfully!", savedTone: "success" });
    const reload = await loader({
      request: new Request("http://localhost/edit-profile", { headers: { Cookie: cookie } }),
      context,
      params: {},
    });
    expect(reload.data.saved).toBeNull();
  });

  it("saves the rest of the profile when the new photo cannot be stored, and warns once that the photo was not", async () => {
    const linked = await sharp({ create: { width: 200, height: 200, channels: 3, background: "#888888" } })
      .jpeg()
      .toBuffer();
    context.services.photoFetcher = async () => ({ ok: true, bytes: linked });
    context.services.images = {
      ...context.services.images,
      saveProfilePhoto: async () => {
        throw new Error("the image service is down");
      },
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const result = await call(() => action({ request: save({ ...changes, password: PASSWORD }, cookie), context, params: {} }));
    errors.mockRestore();
    expect((result as Response).headers.get("Location")).toBe("/edit-profile");
    expect(context.services.store.agents.get(agent.id)).toMatchObject({ fullName: "Dana Reyes-Ortiz", photoUrl: agent.photoUrl });
    const flash = (result as Response).headers.get("Set-Cookie")?.split(";")[0];
    const page = await loader({
      request: new Request("http://localhost/edit-profile", { headers: { Cookie: `${cookie}; ${flash}` } }),
      context,
      params: {},
    });
    expect(page.data).toMatchObject({ saved: NOTICES.profileSavedPhotoFailed, savedTone: "warning" });
  });

  it("refuses to save without the password or with a wrong one", async () => {
    const missing = (await call(() => action({ request: save(changes, cookie), context, params: {} }))) as DataReply;
    expect(missing.init?.status).toBe(400);
    expect(missing.data.error?.password).toEqual(["Password is required for authentication"]);

    const wrong = (await call(() =>
      action({ request: save({ ...changes, password: "guess" }, cookie), context, params: {} }),
    )) as DataReply;
    expect(wrong.init?.status).toBe(400);
    expect(wrong.data.error?.[""]).toEqual(["Failed to save profile changes. Please check your password and try again."]);
    expect(wrong.data.initialValue).toMatchObject({ city: "Tulsa" });
    expect(wrong.data.initialValue).not.toHaveProperty("password");
    expect(context.services.store.agents.get(agent.id)?.city).toBe("Dallas");
  });

  it("stops password guessing after ten wrong tries", async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await call(() => action({ request: save({ ...changes, password: `guess ${attempt}` }, cookie), context, params: {} }));
    }
    const blocked = (await call(() =>
      action({ request: save({ ...changes, password: PASSWORD }, cookie), context, params: {} }),
    )) as DataReply;
    expect(blocked.init?.status).toBe(429);
    expect(blocked.data.error?.[""]?.[0]).toMatch(/^Too many password attempts/);
  });

  it("takes photo links over https only", async () => {
    const result = (await call(() =>
      action({
        request: save({ ...changes, photoUrl: "http://images.example/dana.jpg", password: PASSWORD }, cookie),
        context,
        params: {},
      }),
    )) as DataReply;
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.photoUrl).toEqual(["Please enter an image URL starting with https://"]);
  });

  it("replaces the photo with an upload, and refuses a renamed text file", async () => {
    const renamed = new File(["not an image"], "me.png", { type: "image/png" });
    const refused = (await call(() =>
      action({ request: save({ ...changes, photo: renamed, password: PASSWORD }, cookie), context, params: {} }),
    )) as DataReply;
    expect(refused.data.error?.photo).toEqual(["Please upload a JPG, PNG, or WebP image"]);

    const png = await sharp({ create: { width: 300, height: 500, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const photo = new File([new Uint8Array(png)], "me.png", { type: "image/png" });
    await call(() => action({ request: save({ ...changes, photo, password: PASSWORD }, cookie), context, params: {} }));
    expect(context.services.store.agents.get(agent.id)?.photoUrl).toMatch(/^\/uploads\/profile-.+\.jpg$/);
  });

  it("reports a failed write and keeps the old profile", async () => {
    const { store } = context.services;
    context.services.store = {
      ...store,
      agents: { ...store.agents, update: () => Promise.reject(new StoreWriteError("Agents", { cause: new Error("quota") })) },
    };
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const result = (await call(() =>
      action({ request: save({ ...changes, photoUrl: "", password: PASSWORD }, cookie), context, params: {} }),
    )) as DataReply;
    logged.mockRestore();
    expect(result.init?.status).toBe(503);
    expect(result.data.error?.[""]).toEqual(["Failed to update profile. Please try again."]);
    expect(store.agents.get(agent.id)?.city).toBe("Dallas");
  });
});
