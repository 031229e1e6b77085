import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** The browser build (scripts/test.sh builds before the tests run). */
const ASSETS = path.resolve("build/client/assets");
const scripts = readdirSync(ASSETS).filter((name) => name.endsWith(".js"));
const read = (file: string) => readFileSync(path.join(ASSETS, file), "utf8");

type RouteManifest = { module: string; imports?: string[] };

/** Every script a route's page loads first: its module and the chunks Remix preloads with it. */
function routeScripts(routeId: string): string[] {
  const manifestFile = scripts.find((name) => name.startsWith("manifest-"))!;
  const manifest = JSON.parse(
    read(manifestFile)
      .replace(/^window\.__remixManifest=/, "")
      .replace(/;\s*$/, ""),
  ) as {
    entry: RouteManifest;
    routes: Record<string, RouteManifest>;
  };
  const route = manifest.routes[routeId]!;
  return [route, manifest.routes.root!, manifest.entry]
    .flatMap((part) => [part.module, ...(part.imports ?? [])])
    .map((url) => path.basename(url));
}

describe("the browser bundle", () => {
  it("leaves out libphonenumber: the browser checks only the phone rule, the server the rest", () => {
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((name) => read(name).includes("getCountryCodeForCallingCode"))).toEqual([]);
  });

  it("loads no zod on the public pages without forms", () => {
    for (const routeId of ["routes/_index", "routes/directory", "routes/privacy-policy"]) {
      const withZod = routeScripts(routeId).filter((name) => /\$ZodType|ZodError/.test(read(name)));
      expect([routeId, withZod]).toEqual([routeId, []]);
    }
  });

  it("loads no zod on the member pages that only show requests, referrals and conversations", () => {
    for (const routeId of ["routes/member-dashboard", "routes/referral-requests._index", "routes/referrals._index"]) {
      const withZod = routeScripts(routeId).filter((name) => /\$ZodType|ZodError/.test(read(name)));
      expect([routeId, withZod]).toEqual([routeId, []]);
    }
  });
});
