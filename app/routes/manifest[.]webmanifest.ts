import { appManifest } from "~/domain/app-manifest";

/** The web app manifest, linked from every page (root.tsx); the same for everyone. */
export function loader() {
  return new Response(JSON.stringify(appManifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
