/// <reference types="vitest/config" />
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { WHY_PATH } from "./app/domain/product";

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
  ],
  test: {
    include: ["app/**/*.test.ts", "app/**/*.test.tsx", "tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/security/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
  },
});
