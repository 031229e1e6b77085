import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import type { AppLoadContext } from "@remix-run/node";
import sharp from "sharp";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Agent } from "../../app/domain/workbook/tabs";
import { action } from "../../app/routes/edit-profile";
import { uploadsDirectory } from "../../app/server/images/images.server";
import { outcome, sessionCookie } from "../integration/requests-support";
import { insertAgent, testContext } from "../support/services";

vi.setConfig({ testTimeout: 60_000 });

const PASSWORD = "correct horse battery";
const TYPE_MESSAGE = "Please upload a JPG, PNG, or WebP image";
const INVALID_MESSAGE = "Invalid image file";
const TOO_LARGE_MESSAGE = "File size must be less than 5MB";

let jpeg: Buffer;
let png: Buffer;
let context: AppLoadContext;
let agent: Agent;
let cookie = "";

beforeAll(async () => {
  jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#4477aa" } })
    .jpeg()
    .toBuffer();
  png = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#ffffff" } })
    .png()
    .toBuffer();
});

beforeEach(async () => {
  context = testContext();
  await context.services.store.refresh();
  agent = await insertAgent(context, { password: PASSWORD });
  cookie = await sessionCookie(context, agent);
});

/** Edit profile posted as the browser posts it: multipart, the file last. */
function upload(bytes: Buffer | string, name: string, type: string) {
  const form = new FormData();
  for (const [field, value] of Object.entries({ fullName: "Dana Reyes", city: "Dallas", state: "TX", password: PASSWORD }))
    form.append(field, value);
  form.append("photo", new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type }));
  const request = new Request("http://localhost/edit-profile", { method: "POST", body: form, headers: { Cookie: cookie } });
  return outcome(() => action({ request, context, params: {} }));
}

type Reply = { init: ResponseInit | null; data: { error?: Record<string, string[]> } };

function storedFiles(): string[] {
  const directory = uploadsDirectory(context.services.config);
  return existsSync(directory) ? readdirSync(directory) : [];
}

async function expectRefused(answer: unknown, status: number, message: string) {
  const reply = answer as Reply;
  expect(reply.init?.status).toBe(status);
  expect(reply.data.error?.photo).toEqual([message]);
  expect(context.services.store.agents.get(agent.id)?.photoUrl).toBe("");
  expect(storedFiles()).toEqual([]);
}

/** A PNG whose header claims width × height pixels; its data is one pixel's worth. */
function pngClaiming(width: number, height: number): Buffer {
  const bomb = Buffer.from(png);
  // IHDR: length(4) "IHDR"(4) width(4) height(4) ... CRC over type and data.
  const ihdr = bomb.indexOf("IHDR");
  bomb.writeUInt32BE(width, ihdr + 4);
  bomb.writeUInt32BE(height, ihdr + 8);
  bomb.writeUInt32BE(crc32(bomb.subarray(ihdr, ihdr + 17)), ihdr + 17);
  return bomb;
}

describe("upload attacks on the profile photo", () => {
  it("a text file renamed .jpg is refused by its content", async () => {
    await expectRefused(await upload("just some text, not a picture", "me.jpg", "image/jpeg"), 400, TYPE_MESSAGE);
  });

  it("an SVG with a script is refused, under its own type or renamed", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>';
    await expectRefused(await upload(svg, "me.svg", "image/svg+xml"), 400, TYPE_MESSAGE);
    await expectRefused(await upload(svg, "me.png", "image/png"), 400, TYPE_MESSAGE);
  });

  it("an HTML page behind JPEG magic bytes is refused as an invalid image", async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("<html><script>alert(1)</script></html>")]);
    await expectRefused(await upload(fake, "me.jpg", "image/jpeg"), 400, INVALID_MESSAGE);
  });

  it("a real JPEG carrying a script after its end is stored re-encoded, without the script", async () => {
    const polyglot = Buffer.concat([jpeg, Buffer.from("<script>alert(1)</script>")]);
    const saved = (await upload(polyglot, "me.jpg", "image/jpeg")) as Response;
    expect(saved.headers.get("Location")).toBe("/edit-profile");
    const [file] = storedFiles();
    expect(file).toMatch(/^profile-[0-9a-f-]+\.jpg$/);
    const stored = readFileSync(path.join(uploadsDirectory(context.services.config), file ?? ""));
    expect(stored.includes("<script>")).toBe(false);
    expect((await sharp(stored).metadata()).width).toBe(400);
  });

  it("a decompression bomb (a small PNG declaring 30000×30000) is refused before decoding", async () => {
    const bomb = pngClaiming(30_000, 30_000);
    expect(bomb.byteLength).toBeLessThan(1024);
    const before = process.memoryUsage().rss;
    await expectRefused(await upload(bomb, "me.png", "image/png"), 400, INVALID_MESSAGE);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it("an oversize file is refused with 413 before the rest is read", async () => {
    const oversize = Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024)]);
    await expectRefused(await upload(oversize, "me.jpg", "image/jpeg"), 413, TOO_LARGE_MESSAGE);
  });

  it("a truncated JPEG is refused as an invalid image", async () => {
    await expectRefused(await upload(jpeg.subarray(0, Math.floor(jpeg.byteLength / 2)), "me.jpg", "image/jpeg"), 400, INVALID_MESSAGE);
  });
});
