/**
 * The installed app's icons, drawn by sharp from the site's logo (public/favicon.svg), never
 * by hand, so a new logo is one command away (`npm run icons:build`).
 */
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

/** The logo's own blue (its rounded square): the maskable and Apple icons' full-bleed background. */
const LOGO_BLUE = "#1d4ed8";

/** Each icon: its file under public/icons/, its size in pixels, and how it is drawn. */
export const APP_ICONS = [
  { file: "icon-192.png", size: 192, kind: "logo" },
  { file: "icon-512.png", size: 512, kind: "logo" },
  // Android crops maskable icons to any shape inside the middle 80 %: the logo sits in 60 %, on its blue.
  { file: "icon-maskable-512.png", size: 512, kind: "full-bleed" },
  // iOS rounds the corners itself and shows transparency as black: full-bleed too.
  { file: "apple-touch-icon.png", size: 180, kind: "full-bleed" },
  // The status bar's small icon: Android draws only its alpha, so the letters alone, white.
  { file: "badge-72.png", size: 72, kind: "monochrome" },
] as const;

type Kind = (typeof APP_ICONS)[number]["kind"];

/** A density at which the 32-unit SVG renders at `size` pixels or more, so every icon is scaled down, never up. */
const densityFor = (size: number) => Math.ceil((72 * size) / 32);

async function logo(svg: Buffer, size: number): Promise<Buffer> {
  return sharp(svg, { density: densityFor(size) })
    .resize(size, size)
    .png()
    .toBuffer();
}

async function draw(svg: Buffer, size: number, kind: Kind): Promise<Buffer> {
  if (kind === "logo") return logo(svg, size);
  if (kind === "full-bleed") {
    const inner = Math.round(size * 0.6);
    const offset = Math.round((size - inner) / 2);
    return sharp({ create: { width: size, height: size, channels: 4, background: LOGO_BLUE } })
      .composite([{ input: await logo(svg, inner), top: offset, left: offset }])
      .removeAlpha()
      .png()
      .toBuffer();
  }
  // The white letters are the red channel's bright part (the logo's blue has little red): that channel becomes the alpha of a white square.
  const letters = await sharp(await logo(svg, size))
    .extractChannel("red")
    .linear(1.4, -0.4 * 255)
    .toBuffer();
  return sharp({ create: { width: size, height: size, channels: 3, background: "#ffffff" } })
    .joinChannel(letters)
    .png()
    .toBuffer();
}

/** Writes every icon of APP_ICONS into `outDir`, drawn from the SVG at `logoPath`; returns the files written. */
export async function writeAppIcons(logoPath: string, outDir: string): Promise<string[]> {
  const svg = await readFile(logoPath);
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const icon of APP_ICONS) {
    const file = path.join(outDir, icon.file);
    await sharp(await draw(svg, icon.size, icon.kind)).toFile(file);
    written.push(file);
  }
  return written;
}
