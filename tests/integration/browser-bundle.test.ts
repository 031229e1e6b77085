import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pageLoadsScripts } from "../../app/domain/page-scripts";

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

/** A page's first-load JavaScript in KB, each file gzipped at level 6 as a server sends it. */
function firstLoadKb(manifest: Manifest, routeId: string): number {
  const files = [...new Set(routeScripts(manifest, routeId))];
  return files.reduce((bytes, file) => bytes + gzipSync(readFileSync(path.join(ASSETS, file)), { level: 6 }).length, 0) / 1024;
}

/** The pages a visitor reads, served from the page cache (app/server/page-cache.server.ts). */
const PUBLIC_ROUTES = ["routes/_index", "pages/why", "routes/privacy-policy", "routes/terms-of-service", "routes/directory"];
const BUDGET_KB = { public: 90, every: 100 };

/** Each route's `handle`, from the server build the browser build came with. */
async function routeHandles(): Promise<Record<string, unknown>> {
  const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
  return Object.fromEntries(Object.entries(build.routes).map(([id, route]) => [id, route.module.handle]));
}
type ServerBuild = { routes: Record<string, { module: { handle?: unknown } }> };

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

  it("keeps every page's first-load JavaScript within its budget: 100 KB, on public pages 90 KB for a visitor", async () => {
    const manifest = readManifest();
    const handles = await routeHandles();
    const pages = Object.keys(manifest.routes).map((routeId) => {
      // A member's every page loads its scripts; a visitor's public page may load none (decision 0085).
      const memberKb = firstLoadKb(manifest, routeId);
      const visitorKb = pageLoadsScripts([{ id: routeId, handle: handles[routeId] }], false) ? memberKb : 0;
      return { routeId, memberKb, visitorKb };
    });
    expect(pages.map((page) => page.routeId)).toEqual(expect.arrayContaining([...PUBLIC_ROUTES, "routes/member-dashboard"]));
    const overBudget = pages
      .filter((page) => page.memberKb > BUDGET_KB.every || (PUBLIC_ROUTES.includes(page.routeId) && page.visitorKb > BUDGET_KB.public))
      .map(({ routeId, memberKb, visitorKb }) => ({ routeId, memberKb: memberKb.toFixed(1), visitorKb: visitorKb.toFixed(1) }));
    expect(overBudget).toEqual([]);
  });
});
