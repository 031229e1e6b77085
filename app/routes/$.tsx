import type { MetaFunction } from "@remix-run/node";
import { notFound } from "~/server/http.server";

export const meta: MetaFunction = () => [{ title: "Page not found" }];

/** Every address no other route claims is a 404, rendered by the root error boundary. */
export function loader() {
  throw notFound();
}

export default function NotFound() {
  return null;
}
