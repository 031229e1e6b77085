/// <reference types="vitest/config" />
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import tsconfigPaths from "vite-tsconfig-paths";
import { WHY_PATH } from "./app/domain/product";

/**
 * Adds the Express server (server.production.ts) to Remix's server build as a second
 * entry, so build/server/server.js and the routes share one copy of every module:
 * one StoreError class, one set of services.
 */
function expressServerEntry(): Plugin {
  return {
    name: "express-server-entry",
    apply: (_config, env) => env.command === "build" && env.isSsrBuild === true,
    options(options) {
      const remixEntry = options.input;
      if (typeof remixEntry !== "string") throw new Error("Expected Remix's server build as the only SSR input");
      return { ...options, input: { index: remixEntry, server: path.resolve("server.production.ts") } };
    },
    outputOptions(output) {
      return { ...output, entryFileNames: "[name].js" };
    },
  };
}

/**
 * Builds app/sw.ts into build/client/sw.js after the browser build, with Workbox's list of
 * the files it keeps from the start (docs/decisions/0065). Not in development: `npm run dev`
 * serves no worker, so a stale one never hides a changed source.
 */
function serviceWorker() {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "app",
    filename: "sw.ts",
    // entry.client.tsx registers it; the manifest is a route (app/routes/manifest[.]webmanifest.ts).
    injectRegister: false,
    manifest: false,
    injectManifest: {
      globPatterns: ["assets/*.css", "offline.html", "icons/icon-192.png", "icons/badge-72.png", "favicon.svg"],
    },
  });
}

/** The packages every page's scripts start with: React, React DOM and Remix's browser runtime. */
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|@remix-run\/[^/]+|turbo-stream)\//;

/** The browser's entry and the root route, which every page that loads scripts loads. */
const SHELL_ENTRIES = /\/app\/(entry\.client|root)\.tsx$/;

/**
 * One chunk for what every page that loads scripts loads: the framework, the browser entry,
 * the root route and the modules it imports (header, footer, icons, error screens). Rollup
 * otherwise gives each module shared by two entries a chunk of its own, and each small file
 * compresses worse and costs its own import lines: 4 to 5 KB gzipped on a member page, and
 * the entry's and the root's own files 0.5 KB more (docs/performance.md).
 */
function shellChunk(): Plugin {
  let shell: Set<string> | undefined;
  return {
    name: "shell-chunk",
    apply: (_config, env) => env.command === "build" && env.isSsrBuild !== true,
    outputOptions(output) {
      return {
        ...output,
        manualChunks(id, { getModuleIds, getModuleInfo }) {
          shell ??= rootImports([...getModuleIds()], getModuleInfo);
          return FRAMEWORK.test(id) || SHELL_ENTRIES.test(id) || shell.has(id) ? "components" : undefined;
        },
      };
    },
  };
}

/**
 * The browser build minified by terser, two compress passes, in place of Vite's esbuild:
 * every page's first-load JavaScript 3.6 KB smaller gzipped, for about 4.5 s more build time
 * (docs/performance.md). The server build is not minified, as before.
 */
function browserMinifiedByTerser(): Plugin {
  return {
    name: "browser-minified-by-terser",
    apply: (_config, env) => env.command === "build" && env.isSsrBuild !== true,
    config: () => ({ build: { minify: "terser", terserOptions: { compress: { passes: 2 } } } }),
  };
}

/** Every module app/root.tsx imports, directly or not, statically; not the root itself. */
function rootImports(ids: string[], info: (id: string) => { importedIds: readonly string[] } | null): Set<string> {
  const root = ids.find((id) => id.endsWith("/app/root.tsx"));
  const found = new Set<string>();
  const visit = (id: string) => {
    for (const next of info(id)?.importedIds ?? []) {
      if (found.has(next)) continue;
      found.add(next);
      visit(next);
    }
  };
  if (root) visit(root);
  return found;
}

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [
    tailwindcss(),
    !process.env.VITEST &&
      remix({
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
        // The about page's address comes from the product name, chosen once in app/domain/product.ts.
        routes: (defineRoutes) =>
          defineRoutes((route) => {
            route(WHY_PATH, "pages/why.tsx");
          }),
      }),
    tsconfigPaths(),
    expressServerEntry(),
    shellChunk(),
    browserMinifiedByTerser(),
    !process.env.VITEST && serviceWorker(),
  ],
  test: {
    environment: "node",
    // vitest keeps a core for itself by default: one worker on a 2-core machine. Most test
    // files wait on servers, timers and child processes more than they compute, so every
    // core runs a file (docs/testing.md has the figures).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx"],
          // Pure code with no servers and no process state: a worker's files share its module
          // cache instead of importing the app again for each file, which took longer than
          // their tests (decision 0076). A file restores what it changes (timers, spies, globals).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: [
            "app/**/*.test.ts",
            "app/**/*.test.tsx",
            "tests/integration/**/*.test.ts",
            "tests/security/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          // One PostgreSQL server for the run, for the store tests (tests/support/postgres.ts).
          globalSetup: ["tests/support/postgres-setup.ts"],
        },
      },
    ],
  },
});
