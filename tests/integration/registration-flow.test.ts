import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import bcrypt from "bcryptjs";
import sharp from "sharp";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { FOUNDER_CAP } from "../../app/domain/product";
import { action as completeProfile, loader as completeProfileLoader } from "../../app/routes/complete-profile";
import { action as payment, loader as paymentLoader } from "../../app/routes/payment";
import { action as register, loader as registerLoader } from "../../app/routes/register";
import { loader as registrationSuccessLoader } from "../../app/routes/registration-success";
import { loader as uploads } from "../../app/routes/uploads.$file";
import { createLocalImages } from "../../app/server/images/images.server";
import { newId, StoreWriteError } from "../../app/server/store/store.server";
import { startFakeSendgrid } from "../mocks/sendgrid";
import { insertAgent, postForm, testContext, sentMails } from "../support/services";

const PASSWORD = "Correct-Horse-42";

const details = { fullName: "Dana Reyes", email: "Dana.Reyes@Example.com", phone: "214.555.0100", state: "TX", city: "Dallas" };

const profile = {
  password: PASSWORD,
  confirmPassword: PASSWORD,
  licenseNumber: "0654321",
  licenseState: "TX",
  licenseExpiration: "2027-06-30",
  brokerage: "Lone Star Realty",
  brokerLicenseNumber: "9001234",
  brokerEmail: "broker@lonestar.example",
  specialties: ["Luxury", "Farm and Ranch"],
  bio: "Twenty years in Dallas.",
};

type Reply = { status?: string; initialValue: Record<string, unknown> | null; error?: Record<string, string[] | null> };
type DataReply = { data: Reply; init: ResponseInit | null };

/** Loaders and actions answer with a Response (a redirect), a `data()` result, or throw a redirect. */
async function call<T>(run: () => Promise<T> | T): Promise<T | Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function redirectOf(result: unknown): string | null {
  return result instanceof Response ? result.headers.get("Location") : null;
}

/** The name=value part of the Set-Cookie header, as a browser would send it back. */
function cookieOf(response: Response): string {
  const header = response.headers.get("Set-Cookie") ?? "";
  return header.split(";")[0] ?? "";
}

function get(url: string, cookie = ""): Request {
  return new Request(`http://localhost${url}`, { headers: { Cookie: cookie } });
}

function withCookie(request: Request, cookie: string): Request {
  request.headers.set("Cookie", cookie);
  return request;
}

function multipart(url: string, fields: Record<string, string | string[] | File>, cookie: string): Request {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return new Request(`http://localhost${url}`, { method: "POST", body, headers: { Cookie: cookie } });
}

async function jpeg(): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 64, b: 175 } } })
    .jpeg()
    .toBuffer();
  return new Uint8Array(bytes);
}

async function startRegistration(context: AppLoadContext, fields: Record<string, string> = details): Promise<string> {
  const result = await call(() => register({ request: postForm("/register", fields), context, params: {} }));
  expect(redirectOf(result)).toBe("/payment");
  return cookieOf(result as Response);
}

async function finish(context: AppLoadContext, cookie: string, fields: Record<string, string | string[] | File> = profile) {
  return call(() => completeProfile({ request: multipart("/complete-profile", fields, cookie), context, params: {} }));
}

let context: AppLoadContext;

beforeEach(async () => {
  context = testContext({}, { VIP_CODES: "GOLD2025, Silver" });
  await context.services.store.refresh();
});

// Each registration hashes a password with bcrypt (at the test cost, decision 0040), slow on purpose.
describe("the registration flow", { timeout: 30_000 }, () => {
  it("goes from quick registration through payment to a pending agent with a bcrypt hash, two mails and no password anywhere", async () => {
    const cookie = await startRegistration(context);

    const summary = await call(() => paymentLoader({ request: get("/payment", cookie), context, params: {} }));
    expect(summary).toMatchObject({
      draft: { fullName: "Dana Reyes", email: "dana.reyes@example.com", phone: "(214) 555-0100", state: "TX", city: "Dallas" },
      membershipType: "founder",
    });
    const paid = await call(() => payment({ request: withCookie(postForm("/payment", {}), cookie), context, params: {} }));
    expect(redirectOf(paid)).toBe("/registration-success");
    expect(await call(() => registrationSuccessLoader({ request: get("/registration-success", cookie), context, params: {} }))).toEqual({
      firstName: "Dana",
    });
    expect(await call(() => completeProfileLoader({ request: get("/complete-profile", cookie), context, params: {} }))).toMatchObject({
      state: "TX",
    });

    const done = await finish(context, cookie, { ...profile, photo: new File([await jpeg()], "me.jpg", { type: "image/jpeg" }) });
    expect(redirectOf(done)).toBe("/welcome");
    // The draft is cleared once the profile exists.
    expect((done as Response).headers.get("Set-Cookie")).toMatch(/__registration=;.*Expires=Thu, 01 Jan 1970/);

    const [agent, ...others] = context.services.store.agents.by("email", "dana.reyes@example.com");
    expect(others).toHaveLength(0);
    expect(agent).toMatchObject({
      fullName: "Dana Reyes",
      phone: "(214) 555-0100",
      licenseNumber: "0654321",
      licenseState: "TX",
      licenseExpiration: "2027-06-30",
      brokerEmail: "broker@lonestar.example",
      specialties: ["Luxury", "Farm and Ranch"],
      status: "pending",
      membershipType: "founder",
      vipCode: "",
    });
    expect(agent?.passwordHash).toMatch(/^\$2[aby]\$/);
    expect(await bcrypt.compare(PASSWORD, agent?.passwordHash ?? "")).toBe(true);
    expect(JSON.stringify(agent)).not.toContain(PASSWORD);

    // The photo was resized and is served by the uploads route.
    expect(agent?.photoUrl).toMatch(/^\/uploads\/profile-[0-9a-f-]+\.jpg$/);
    const served = (await uploads({
      request: get(agent?.photoUrl ?? ""),
      context,
      params: { file: path.basename(agent?.photoUrl ?? "") },
    })) as Response;
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(400);

    const mails = await sentMails(context.services);
    expect(mails.map((mail) => mail.to).sort()).toEqual(["dana.reyes@example.com", "support@example.test"]);
    for (const mail of mails) expect(JSON.stringify(mail)).not.toContain(PASSWORD);
    expect(mails.find((mail) => mail.to === "dana.reyes@example.com")?.text).toContain("http://localhost/member-login");
  });

  it("sends visitors without a draft back to quick registration", async () => {
    const loaders: Array<(args: LoaderFunctionArgs) => Promise<unknown>> = [
      paymentLoader,
      registrationSuccessLoader,
      completeProfileLoader,
    ];
    for (const loader of loaders) {
      expect(redirectOf(await call(() => loader({ request: get("/x"), context, params: {} })))).toBe("/register");
      // A draft cookie that was tampered with counts as none.
      expect(
        redirectOf(await call(() => loader({ request: get("/x", "__registration=eyJkcmFmdCI6e319.forged"), context, params: {} }))),
      ).toBe("/register");
    }
    expect(redirectOf(await finish(context, ""))).toBe("/register");
  });

  it("keeps the draft in an httpOnly, SameSite=Lax cookie that lasts a day", async () => {
    const result = await call(() => register({ request: postForm("/register", details), context, params: {} }));
    const header = (result as Response).headers.get("Set-Cookie") ?? "";
    expect(header).toMatch(/^__registration=/);
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    expect(header).toContain("Max-Age=86400");
    expect(header).not.toContain("Dana");
  });

  it("answers bad quick-registration input with 400, the messages and the input kept", async () => {
    const result = (await call(() =>
      register({ request: postForm("/register", { ...details, email: "dana@", phone: "555" }), context, params: {} }),
    )) as DataReply;
    expect(result.init?.status).toBe(400);
    expect(result.data.error).toMatchObject({
      email: ["Please enter a valid email address"],
      phone: ["Please enter a valid phone number"],
    });
    expect(result.data.initialValue).toMatchObject({ fullName: "Dana Reyes", email: "dana@", city: "Dallas" });
  });

  it("tells an already registered e-mail to log in, at the first step and again at the last", async () => {
    await insertAgent(context, { email: "dana.reyes@example.com" });
    const first = (await call(() => register({ request: postForm("/register", details), context, params: {} }))) as DataReply;
    expect(first.init?.status).toBe(409);
    expect(first.data.error?.email).toEqual(["An account with this email already exists. Please log in instead."]);

    const other = testContext();
    await other.services.store.refresh();
    const cookie = await startRegistration(other);
    await insertAgent(other, { email: "dana.reyes@example.com" });
    const last = (await finish(other, cookie)) as DataReply;
    expect(last.init?.status).toBe(409);
    expect(last.data.error?.[""]).toEqual(["An account with this email already exists. Please log in instead."]);
    expect(other.services.store.agents.by("email", "dana.reyes@example.com")).toHaveLength(1);
  });

  it("answers bad profile input with 400, never echoing the passwords", async () => {
    const cookie = await startRegistration(context);
    const result = (await finish(context, cookie, { ...profile, confirmPassword: "something else", brokerage: "" })) as DataReply;
    expect(result.init?.status).toBe(400);
    expect(result.data.error).toMatchObject({
      confirmPassword: ["Passwords do not match. Please try again."],
      // A Texas applicant, and no TREC data loaded here: the reason nothing filled the broker.
      brokerage: [
        "We cannot look up your broker: TREC's license data is not loaded yet, so please type your broker's name, license number and email.",
      ],
    });
    expect(result.data.initialValue).toMatchObject({ licenseNumber: "0654321", specialties: ["Luxury", "Farm and Ranch"] });
    expect(result.data.initialValue).not.toHaveProperty("password");
    expect(result.data.initialValue).not.toHaveProperty("confirmPassword");
    expect(context.services.store.agents.all()).toHaveLength(0);
  });

  it("refuses a text file renamed to .jpg and saves nothing", async () => {
    const cookie = await startRegistration(context);
    const renamed = new File(["just some text, not a picture"], "photo.jpg", { type: "image/jpeg" });
    const result = (await finish(context, cookie, { ...profile, photo: renamed })) as DataReply;
    expect(result.init?.status).toBe(400);
    expect(result.data.error?.photo).toEqual(["Please upload a JPG, PNG, or WebP image"]);
    expect(context.services.store.agents.all()).toHaveLength(0);
  });

  it("refuses a photo over 5MB with the product's message and keeps the other input", async () => {
    const cookie = await startRegistration(context);
    const big = new File([new Uint8Array(6 * 1024 * 1024)], "big.jpg", { type: "image/jpeg" });
    const result = (await finish(context, cookie, { ...profile, photo: big })) as DataReply;
    expect(result.init?.status).toBe(413);
    expect(result.data.error?.photo).toEqual(["File size must be less than 5MB"]);
    expect(result.data.initialValue).toMatchObject({ brokerage: "Lone Star Realty" });
  });

  it("registers without the photo when storing it fails", async () => {
    // The real local driver, given an uploads folder that cannot be made (its parent is a file).
    const file = path.join(mkdtempSync(path.join(tmpdir(), "referral-no-uploads-")), "not-a-folder");
    writeFileSync(file, "");
    const failing = testContext({ images: createLocalImages(path.join(file, "uploads")) });
    await failing.services.store.refresh();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const cookie = await startRegistration(failing);
    const done = await finish(failing, cookie, { ...profile, photo: new File([await jpeg()], "me.jpg", { type: "image/jpeg" }) });
    expect(redirectOf(done)).toBe("/welcome");
    expect(failing.services.store.agents.all()[0]?.photoUrl).toBe("");
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it("registers even when SendGrid refuses every mail", async () => {
    const sendgrid = await startFakeSendgrid("SG.current-key");
    try {
      const failing = testContext({}, { SENDGRID_API_KEY: "SG.revoked-key", SENDGRID_API_URL: sendgrid.url });
      await failing.services.store.refresh();
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const cookie = await startRegistration(failing);
      expect(redirectOf(await finish(failing, cookie))).toBe("/welcome");
      expect(failing.services.store.agents.all()).toHaveLength(1);
      await failing.services.notifier.idle();
      expect(logged).toHaveBeenCalledTimes(2);
      expect(sendgrid.mails).toEqual([]);
      logged.mockRestore();
    } finally {
      await sendgrid.close();
    }
  });

  it("reports a store failure on the form, keeps the input and sends no mail", async () => {
    const { store } = context.services;
    const failing = testContext({
      store: {
        ...store,
        agents: { ...store.agents, insertOnce: () => Promise.reject(new StoreWriteError("Agents", { cause: new Error("quota") })) },
      },
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const cookie = await startRegistration(failing);
    const result = (await finish(failing, cookie)) as DataReply;
    logged.mockRestore();
    expect(result.init?.status).toBe(503);
    expect(result.data.error?.[""]).toEqual(["Registration failed: your profile could not be saved. Please try again."]);
    expect(result.data.initialValue).toMatchObject({ licenseNumber: "0654321" });
    expect(await sentMails(failing.services)).toEqual([]);
  });
});

describe("membership types", { timeout: 30_000 }, () => {
  it("shows a VIP banner for a configured code in any case, and stores the code on the agent", async () => {
    expect(await registerLoader({ request: get("/register?vip=gold2025"), context, params: {} })).toMatchObject({ vipCode: "GOLD2025" });
    expect(await registerLoader({ request: get("/register?vip=bronze"), context, params: {} })).toMatchObject({ vipCode: null });

    const cookie = await startRegistration(context, { ...details, vip: "gold2025" });
    expect(await call(() => paymentLoader({ request: get("/payment", cookie), context, params: {} }))).toMatchObject({
      membershipType: "vip",
    });
    await finish(context, cookie);
    expect(context.services.store.agents.all()[0]).toMatchObject({ membershipType: "vip", vipCode: "GOLD2025" });
  });

  it("ignores a code that is not configured", async () => {
    const cookie = await startRegistration(context, { ...details, vip: "bronze" });
    await finish(context, cookie);
    expect(context.services.store.agents.all()[0]).toMatchObject({ membershipType: "founder", vipCode: "" });
  });

  it("makes agents members rather than founders once 100 founder rows hold the spots", async () => {
    const now = new Date().toISOString();
    const base = await insertAgent(context);
    for (let index = 1; index < FOUNDER_CAP; index += 1) {
      await context.services.store.agents.insert({ ...base, id: newId(), email: `agent${index}@example.com`, createdAt: now });
    }
    expect(context.services.store.agents.all()).toHaveLength(FOUNDER_CAP);
    const cookie = await startRegistration(context);
    await finish(context, cookie);
    expect(context.services.store.agents.by("email", "dana.reyes@example.com")[0]?.membershipType).toBe("member");
  });
});

describe("the uploads route", () => {
  it("serves only names the app generates", async () => {
    const serve = async (file: string) => (await uploads({ request: get(`/uploads/${file}`), context, params: { file } })) as Response;
    for (const name of ["../store.sqlite", "..%2Fstore.sqlite", "profile.svg", ".hidden.jpg", "profile-missing.jpg"]) {
      const response = await serve(name);
      expect(response.status).toBe(404);
    }
    const stored = await context.services.images.saveProfilePhoto(Buffer.from(await jpeg()));
    const response = await serve(path.basename(stored));
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(
      readFileSync(path.join(context.services.config.dataDir, "uploads", path.basename(stored))),
    );
  });
});
