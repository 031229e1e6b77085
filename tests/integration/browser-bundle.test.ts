import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** The browser build (scripts/test.sh builds before the tests run). */
const ASSETS = path.resolve("build/client/assets");
const scripts = readdirSync(ASSETS).filter((name) => name.endsWith(".js"));
const read = (file: string) => readFileSync(path.join(ASSETS, file), "utf8");

type RouteManifest = { module: string; imports?: string[]; parentId?: string };
type Manifest = { entry: RouteManifest; routes: Record<string, RouteManifest> };

function readManifest(): Manifest {
  const manifestFile = scripts.find((name) => name.startsWith("manifest-"))!;
  return JSON.parse(
    read(manifestFile)
      .replace(/^window\.__remixManifest=/, "")
      .replace(/;\s*$/, ""),
  ) as Manifest;
}

/** Every script a route's page loads first: its module, its parents' (up to the root) and the chunks Remix preloads with them. */
function routeScripts(manifest: Manifest, routeId: string): string[] {
  const parts = [manifest.entry];
  for (let route = manifest.routes[routeId]; route; route = route.parentId ? manifest.routes[route.parentId] : undefined) {
    parts.push(route);
  }
  return parts.flatMap((part) => [part.module, ...(part.imports ?? [])]).map((url) => path.basename(url));
}

/** zod's classes, and conform's runtime (its intent field's name, its context's error). */
const ZOD = /\$ZodType|ZodError/;
const CONFORM = /__intent__|Form context is not available/;

describe("the browser bundle", () => {
  it("leaves out libphonenumber: the browser checks only the phone rule, the server the rest", () => {
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((name) => read(name).includes("getCountryCodeForCallingCode"))).toEqual([]);
  });

  it("loads neither zod nor conform on any page: forms are validated by the server alone (decision 0024)", () => {
    const manifest = readManifest();
    const routeIds = Object.keys(manifest.routes);
    expect(routeIds).toEqual(
      expect.arrayContaining(["root", "routes/messages", "routes/register", "routes/edit-profile", "routes/contact"]),
    );
    for (const routeId of routeIds) {
      const withZod = routeScripts(manifest, routeId).filter((name) => ZOD.test(read(name)));
      const withConform = routeScripts(manifest, routeId).filter((name) => CONFORM.test(read(name)));
      expect({ routeId, withZod, withConform }).toEqual({ routeId, withZod: [], withConform: [] });
    }
  });
});
