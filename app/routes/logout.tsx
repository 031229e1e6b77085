import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { endMemberSession } from "~/server/auth/session.server";

export function action({ request, context }: ActionFunctionArgs) {
  return endMemberSession(request, context);
}

/** Only a POST logs out: a link, a prefetch or an image tag pointing here changes nothing. */
export function loader() {
  return redirect("/");
}
