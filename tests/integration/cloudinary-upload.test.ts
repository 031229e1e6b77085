import sharp from "sharp";
import { afterAll, describe, expect, it, vi } from "vitest";
import { action as editProfile } from "../../app/routes/edit-profile";
import { startMemberSession } from "../../app/server/auth/session.server";
import { loadConfig } from "../../app/server/config.server";
import { createImageService, ImageUploadError } from "../../app/server/images/images.server";
import { photoFromLink } from "../../app/server/images/photo-link.server";
import { savePhoto } from "../../app/server/images/save-photo.server";
import { stringToSign } from "../mocks/cloudinary";
import { insertAgent, testContext } from "../support/services";

const account = { cloudName: "demo-cloud", apiKey: "123456", apiSecret: "shh-secret" };

/**
 * The SDK picks http or https from CLOUDINARY_URL's upload_prefix when it is first
 * loaded, as it would in a deployment, so the stand-in starts and the variable is set
 * before the imports above run.
 */
const cloudinary = await vi.hoisted(async () => {
  const { startFakeCloudinary } = await import("../mocks/cloudinary");
  const started = await startFakeCloudinary({ cloudName: "demo-cloud", apiKey: "123456", apiSecret: "shh-secret" });
  process.env.CLOUDINARY_URL = started.cloudinaryUrl;
  return started;
});

afterAll(() => cloudinary.close());

function picture(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .webp()
    .toBuffer();
}

function imagesFor(cloudinaryUrl: string) {
  return createImageService(
    loadConfig({ NODE_ENV: "test", DATA_DIR: "/nonexistent-unused", SESSION_SECRET: "s", CLOUDINARY_URL: cloudinaryUrl }),
  );
}

describe("Cloudinary uploads through the real SDK", () => {
  it("signs the upload, puts the resized JPEG in the profiles folder and returns Cloudinary's secure_url", async () => {
    const before = cloudinary.images.length;
    const url = await imagesFor(cloudinary.cloudinaryUrl).saveProfilePhoto(await picture());
    const stored = cloudinary.images.slice(before);
    expect(stored).toHaveLength(1);
    expect(url).toBe(stored[0]?.secureUrl);
    expect(url).toMatch(/^https:\/\/res\.cloudinary\.com\/demo-cloud\/image\/upload\/v\d+\/profiles\/profile-[0-9a-f-]{36}\.jpg$/);
    expect(stored[0]?.params).toMatchObject({ api_key: "123456", folder: "profiles", overwrite: "0" });
    // The signature the stand-in accepted covered exactly these parameters.
    expect(stringToSign(stored[0]?.params ?? {})).toMatch(/^folder=profiles&overwrite=0&public_id=profile-[0-9a-f-]{36}&timestamp=\d+$/);
    const metadata = await sharp(stored[0]?.bytes).metadata();
    expect([metadata.format, metadata.width]).toEqual(["jpeg", 400]);
  });

  it("stores Cloudinary's secure_url as the member's photo when a profile is saved with an upload", { timeout: 30_000 }, async () => {
    const context = testContext({}, { CLOUDINARY_URL: cloudinary.cloudinaryUrl });
    await context.services.store.refresh();
    const agent = await insertAgent(context, { password: "correct horse battery" });
    const session = await startMemberSession(new Request("http://localhost/member-login"), context, agent, "/edit-profile");
    const cookie = (session.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    const body = new FormData();
    const fields = {
      fullName: agent.fullName,
      phone: agent.phone,
      city: agent.city,
      state: agent.state,
      brokerage: agent.brokerage,
      bio: "",
      photoUrl: "",
      password: "correct horse battery",
    };
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    body.append("specialties", "Residential");
    body.append("photo", new File([new Uint8Array(await picture())], "me.webp", { type: "image/webp" }));
    const before = cloudinary.images.length;
    const result = await editProfile({
      request: new Request("http://localhost/edit-profile", { method: "POST", body, headers: { Cookie: cookie } }),
      context,
      params: {},
    });
    expect((result as Response).headers.get("Location")).toBe("/edit-profile");
    expect(cloudinary.images).toHaveLength(before + 1);
    expect(context.services.store.agents.get(agent.id)?.photoUrl).toBe(cloudinary.images.at(-1)?.secureUrl);
  });

  it("keeps the stored address as the app's own copy when the profile is saved again", async () => {
    const context = testContext({}, { CLOUDINARY_URL: cloudinary.cloudinaryUrl });
    const saved = await savePhoto(context.services.images, await picture());
    expect(saved.status).toBe("saved");
    const url = saved.status === "saved" ? saved.url : "";
    const before = cloudinary.images.length;
    expect(await photoFromLink(context.services, url)).toEqual({ status: "saved", url });
    expect(cloudinary.images).toHaveLength(before);
  });

  it("is refused when the request is signed with the wrong secret, and stores nothing", async () => {
    const wrongSecret = cloudinary.cloudinaryUrl.replace(`:${account.apiSecret}@`, ":not-the-secret@");
    const before = cloudinary.images.length;
    const upload = imagesFor(wrongSecret).saveProfilePhoto(await picture());
    await expect(upload).rejects.toThrow(ImageUploadError);
    await expect(upload).rejects.toThrow(/Invalid Signature/);
    expect(cloudinary.images).toHaveLength(before);
  });

  it("is refused for an API key the cloud does not know", async () => {
    const unknownKey = cloudinary.cloudinaryUrl.replace(`${account.apiKey}:`, "999999:");
    await expect(imagesFor(unknownKey).saveProfilePhoto(await picture())).rejects.toThrow(/Unknown API key 999999/);
  });
});
