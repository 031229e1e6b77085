// The benchmark's yardstick: a bare Remix 2.17 app with one page, built and served the
// way `remix-serve` serves an app (Express, compression, the request handler).
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [remix({ future: { v3_singleFetch: true } })],
});
