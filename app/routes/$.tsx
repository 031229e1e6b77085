import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Page not found" }];

/** Every address no other route claims is a 404, rendered by the root error boundary. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
