import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
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

/** A page's first-load JavaScript in KB, each file gzipped at level 6 as a server sends it. */
function firstLoadKb(manifest: Manifest, routeId: string): number {
  const files = [...new Set(routeScripts(manifest, routeId))];
  return files.reduce((bytes, file) => bytes + gzipSync(readFileSync(path.join(ASSETS, file)), { level: 6 }).length, 0) / 1024;
}

/** The pages a visitor reads, served from the page cache (app/server/page-cache.server.ts). */
const PUBLIC_ROUTES = ["routes/_index", "pages/why", "routes/privacy-policy", "routes/terms-of-service", "routes/directory"];
const BUDGET_KB = { public: 90, every: 100 };

/**
 * Pages over their budget, each with the most it may weigh until it is met (docs/performance.md
 * says what stands in the way): a page may not grow while it misses, and its line goes once it
 * meets the budget. React, React DOM and Remix alone are 82.6 KB, the root's header, footer and
 * error screens 5.1 KB more.
 */
const OVER_BUDGET_KB: Record<string, number> = {
  "routes/member-dashboard": 101,
  "routes/_index": 92.5,
  "pages/why": 92.5,
  "routes/privacy-policy": 94.5,
  "routes/terms-of-service": 94.5,
  "routes/directory": 97.5,
};

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

  it("keeps every page's first-load JavaScript within its budget: 100 KB, 90 KB on public pages", () => {
    const manifest = readManifest();
    const pages = Object.keys(manifest.routes).map((routeId) => {
      const budget = PUBLIC_ROUTES.includes(routeId) ? BUDGET_KB.public : BUDGET_KB.every;
      return { routeId, kb: firstLoadKb(manifest, routeId), budget, ceiling: OVER_BUDGET_KB[routeId] };
    });
    expect(pages.map((page) => page.routeId)).toEqual(expect.arrayContaining([...PUBLIC_ROUTES, "routes/member-dashboard"]));
    const overBudget = pages.filter((page) => page.kb > page.budget && page.ceiling === undefined).map((page) => page.routeId);
    const grownPastCeiling = pages.filter((page) => page.ceiling !== undefined && page.kb > page.ceiling).map((page) => page.routeId);
    const nowWithinBudget = pages.filter((page) => page.ceiling !== undefined && page.kb <= page.budget).map((page) => page.routeId);
    expect({ overBudget, grownPastCeiling, nowWithinBudget }).toEqual({ overBudget: [], grownPastCeiling: [], nowWithinBudget: [] });
  });
});
