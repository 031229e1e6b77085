import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { createLocalImages } from "../../app/server/images/images.server";
import { checkPhoto, detectImageKind } from "../../app/server/images/photo-check.server";
import { InvalidImageError, resizeProfilePhoto } from "../../app/server/images/resize.server";
import { photoFromUpload, savePhoto } from "../../app/server/images/save-photo.server";

function picture(format: "jpeg" | "png" | "webp", width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .toFormat(format)
    .toBuffer();
}

const textFile = Buffer.from("This is not a picture, just text renamed to .jpg\n");

describe("detectImageKind", () => {
  it("names JPEG, PNG and WebP by their first bytes", async () => {
    expect(detectImageKind(await picture("jpeg"))).toBe("jpeg");
    expect(detectImageKind(await picture("png"))).toBe("png");
    expect(detectImageKind(await picture("webp"))).toBe("webp");
  });

  it("does not recognise text, a GIF or a truncated header", () => {
    expect(detectImageKind(textFile)).toBeUndefined();
    expect(detectImageKind(Buffer.from("GIF89a"))).toBeUndefined();
    expect(detectImageKind(Buffer.from([0xff, 0xd8]))).toBeUndefined();
    expect(detectImageKind(Buffer.from("RIFF\0\0\0\0WAVE"))).toBeUndefined();
  });
});

describe("checkPhoto", () => {
  it("accepts a real JPEG", async () => {
    const jpeg = await picture("jpeg");
    const result = await checkPhoto(new File([new Uint8Array(jpeg)], "me.jpg", { type: "image/jpeg" }));
    expect(result).toMatchObject({ ok: true, kind: "jpeg" });
  });

  it("refuses a text file renamed to .jpg and sent as a JPEG", async () => {
    const result = await checkPhoto(new File([new Uint8Array(textFile)], "me.jpg", { type: "image/jpeg" }));
    expect(result).toEqual({ ok: false, message: "Please upload a JPG, PNG, or WebP image" });
  });

  it("refuses a real image declared as another type, and a GIF", async () => {
    const jpeg = await picture("jpeg");
    expect(await checkPhoto(new File([new Uint8Array(jpeg)], "me.txt", { type: "text/plain" }))).toMatchObject({ ok: false });
    expect(await checkPhoto(new File(["GIF89a"], "me.gif", { type: "image/gif" }))).toMatchObject({ ok: false });
  });

  it("refuses a file over 5MB before reading it", async () => {
    const big = new File([new Uint8Array(5_242_881)], "big.jpg", { type: "image/jpeg" });
    expect(await checkPhoto(big)).toEqual({ ok: false, message: "File size must be less than 5MB" });
  });
});

describe("resizeProfilePhoto", () => {
  it("makes a 400x400 JPEG from any accepted format and shape", async () => {
    for (const input of [await picture("jpeg", 1200, 500), await picture("png", 300, 900), await picture("webp", 50, 50)]) {
      const output = await resizeProfilePhoto(input);
      const meta = await sharp(output).metadata();
      expect(meta).toMatchObject({ format: "jpeg", width: 400, height: 400 });
    }
  });

  it("reports a file that starts like a JPEG but is not one", async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), textFile]);
    await expect(resizeProfilePhoto(fake)).rejects.toBeInstanceOf(InvalidImageError);
  });
});

describe("local image storage", () => {
  it("stores the resized photo under a random name and returns its address", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "uploads-test-"));
    const url = await createLocalImages(directory).saveProfilePhoto(await picture("png"));
    expect(url).toMatch(/^\/uploads\/profile-[0-9a-f-]{36}\.jpg$/);
    const stored = readFileSync(path.join(directory, path.basename(url)));
    expect((await sharp(stored).metadata()).width).toBe(400);
  });

  it("sorts failures: an undecodable file is the user's, a storage failure is logged and skipped", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "uploads-test-"));
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), textFile]);
    expect(await savePhoto(createLocalImages(directory), fake)).toEqual({ status: "invalid", message: "Invalid image file" });

    const blocked = path.join(directory, "not-a-directory");
    writeFileSync(blocked, "a file where the uploads directory should be");
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await savePhoto(createLocalImages(blocked), await picture("jpeg"))).toEqual({ status: "failed" });
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe("photoFromUpload", () => {
  const upload = (bytes: Buffer, name = "me.jpg", type = "image/jpeg") => new File([new Uint8Array(bytes)], name, { type });

  it("stores a real photo and answers its address", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "uploads-test-"));
    expect(await photoFromUpload(createLocalImages(directory), upload(await picture("jpeg")))).toEqual({
      status: "saved",
      url: expect.stringMatching(/^\/uploads\/profile-[0-9a-f-]{36}\.jpg$/),
    });
  });

  it("refuses what is not a usable image with the photo field's message, and goes on without a photo when storing fails", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "uploads-test-"));
    expect(await photoFromUpload(createLocalImages(directory), upload(textFile))).toEqual({
      status: "refused",
      message: expect.any(String),
    });
    const undecodable = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), textFile]);
    expect(await photoFromUpload(createLocalImages(directory), upload(undecodable))).toEqual({
      status: "refused",
      message: "Invalid image file",
    });

    const blocked = path.join(directory, "not-a-directory");
    writeFileSync(blocked, "a file where the uploads directory should be");
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await photoFromUpload(createLocalImages(blocked), upload(await picture("png"), "me.png", "image/png"))).toEqual({
      status: "failed",
    });
    logged.mockRestore();
  });
});
