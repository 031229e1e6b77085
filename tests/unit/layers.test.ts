/**
 * What each layer of app/ may import, as docs/architecture.md ("The layers and what each may
 * import") says. A failure names the import that crosses a layer: move the code to the layer
 * it belongs in, or change the rule here and in the document together.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { beforeAll, describe, expect, it } from "vitest";

const APP = "app";

/** The store's modules that code outside app/server/store may import by name. */
const STORE_PUBLIC = new Set([
  "server/store/store.server.ts",
  "server/store/write-queues.server.ts",
  "server/store/postgres/database.server.ts",
  "server/store/postgres/driver.server.ts",
  "server/store/postgres/messages.server.ts",
]);
/** Of those, what a route may import: the store's errors and types, and /healthz's list of database tables. */
const STORE_FOR_ROUTES = new Set(["server/store/store.server.ts", "server/store/postgres/driver.server.ts"]);

type Layer = "routes" | "components" | "domain" | "store" | "server" | "other";

function layerOf(module: string): Layer {
  if (module.startsWith("routes/")) return "routes";
  if (module.startsWith("components/")) return "components";
  if (module.startsWith("domain/")) return "domain";
  if (module.startsWith("server/store/")) return "store";
  if (module.startsWith("server/")) return "server";
  return "other";
}

/** True when every import of `target` in the file is `import type`, erased before the browser sees it. */
function importsOnlyTypes(file: string, target: string): boolean {
  const source = readFileSync(path.join(APP, file), "utf8");
  const name = path.basename(target).replace(/\.tsx?$/, "");
  const lines = source.split("\n").filter((line) => /^\s*(import|export)\b/.test(line) && line.includes(`/${name}"`));
  return lines.length > 0 && lines.every((line) => /^\s*import type\b/.test(line));
}

let imports: { from: string; to: string }[] = [];

beforeAll(async () => {
  const graph = await madge(APP, { fileExtensions: ["ts", "tsx"], tsConfig: "tsconfig.json" });
  imports = Object.entries(graph.obj()).flatMap(([from, targets]) => targets.map((to) => ({ from, to })));
}, 60_000);

const crossing = (rule: (from: string, to: string) => boolean) =>
  imports.filter(({ from, to }) => rule(from, to)).map(({ from, to }) => `${from} → ${to}`);

describe("the layers of app/", () => {
  it("reads the import graph", () => {
    expect(imports.length).toBeGreaterThan(1000);
  });

  it("keeps app/domain pure: it imports only app/domain", () => {
    expect(crossing((from, to) => layerOf(from) === "domain" && layerOf(to) !== "domain")).toEqual([]);
  });

  it("imports no route anywhere, beyond a folder route's own modules beside it (decision 0074)", () => {
    const sameRouteFolder = (from: string, to: string) => path.dirname(to) !== "routes" && path.dirname(from) === path.dirname(to);
    expect(crossing((from, to) => layerOf(to) === "routes" && !sameRouteFolder(from, to))).toEqual([]);
  });

  it("lets components take only types from app/server", () => {
    expect(
      crossing(
        (from, to) =>
          layerOf(from) === "components" && (layerOf(to) === "server" || layerOf(to) === "store") && !importsOnlyTypes(from, to),
      ),
    ).toEqual([]);
  });

  it("keeps app/server out of the UI: no server module imports a component", () => {
    expect(crossing((from, to) => (layerOf(from) === "server" || layerOf(from) === "store") && layerOf(to) === "components")).toEqual([]);
  });

  it("keeps the store below the features: it imports app/domain, itself and the configuration only", () => {
    expect(
      crossing((from, to) => layerOf(from) === "store" && !["store", "domain"].includes(layerOf(to)) && to !== "server/config.server.ts"),
    ).toEqual([]);
  });

  it("lets features reach the store through its public modules only", () => {
    expect(crossing((from, to) => layerOf(from) === "server" && layerOf(to) === "store" && !STORE_PUBLIC.has(to))).toEqual([]);
  });

  it("lets routes reach the store only for its errors, types and the database's tables", () => {
    expect(crossing((from, to) => layerOf(from) === "routes" && layerOf(to) === "store" && !STORE_FOR_ROUTES.has(to))).toEqual([]);
  });
});
