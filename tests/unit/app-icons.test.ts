import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { appManifest } from "~/domain/app-manifest";
import { APP_ICONS, writeAppIcons } from "../../scripts/lib/app-icons";

const outDir = mkdtempSync(path.join(tmpdir(), "app-icons-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe("npm run icons:build", () => {
  it("draws every icon from the logo at its size, the opaque ones without transparency", async () => {
    const written = await writeAppIcons(path.resolve("public/favicon.svg"), outDir);
    expect(written.map((file) => path.basename(file))).toEqual(APP_ICONS.map((icon) => icon.file));
    // What browsers ask for: 192 and 512 px for Android and desktop, a maskable 512, Apple's 180, a small badge.
    expect(Object.fromEntries(APP_ICONS.map((icon) => [icon.file, icon.size]))).toEqual({
      "icon-192.png": 192,
      "icon-512.png": 512,
      "icon-maskable-512.png": 512,
      "apple-touch-icon.png": 180,
      "badge-72.png": 72,
    });
    for (const icon of APP_ICONS) {
      const meta = await sharp(path.join(outDir, icon.file)).metadata();
      expect({ file: icon.file, format: meta.format, width: meta.width, height: meta.height }).toEqual({
        file: icon.file,
        format: "png",
        width: icon.size,
        height: icon.size,
      });
      // Maskable and Apple icons fill their square: a phone's mask or rounded corners never show a see-through edge.
      if (icon.kind === "full-bleed") expect(meta.hasAlpha).toBe(false);
    }
  });

  it("draws the badge as white letters on transparency, which is all Android shows of it", async () => {
    const { data, info } = await sharp(path.join(outDir, "badge-72.png")).raw().toBuffer({ resolveWithObject: true });
    let opaque = 0;
    let clear = 0;
    for (let pixel = 0; pixel < info.width * info.height; pixel++) {
      const [red, green, blue, alpha] = data.subarray(pixel * 4, pixel * 4 + 4);
      expect([red, green, blue]).toEqual([255, 255, 255]);
      if (alpha === 255) opaque++;
      if (alpha === 0) clear++;
    }
    expect(opaque).toBeGreaterThan(200);
    expect(clear).toBeGreaterThan(info.width * info.height * 0.6);
  });

  it("has written every icon the manifest names into public/icons", () => {
    const committed = readdirSync("public/icons");
    for (const icon of appManifest.icons) expect(committed).toContain(path.basename(icon.src));
    expect(committed).toEqual(expect.arrayContaining(APP_ICONS.map((icon) => icon.file)));
  });
});
