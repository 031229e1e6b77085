import type { MetaDescriptor, MetaFunction } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import * as home from "~/routes/_index";
import * as contact from "~/routes/contact";
import * as directory from "~/routes/directory";
import * as memberDashboard from "~/routes/member-dashboard";
import * as memberLogin from "~/routes/member-login";
import * as messages from "~/routes/messages";
import * as referralRequests from "~/routes/referral-requests._index";
import * as register from "~/routes/register";

// The pages `npm run audit` scores: Lighthouse's SEO category wants a meta description on each.
const AUDITED_PAGES: Record<string, { meta?: MetaFunction }> = {
  "/": home,
  "/directory": directory,
  "/register": register,
  "/member-login": memberLogin,
  "/contact": contact,
  "/member-dashboard": memberDashboard,
  "/referral-requests": referralRequests,
  "/messages": messages,
};

function descriptionOf(descriptors: MetaDescriptor[]): string | undefined {
  const found = descriptors.find((descriptor) => "name" in descriptor && descriptor.name === "description");
  return found && "content" in found ? String(found.content) : undefined;
}

describe("page meta", () => {
  for (const [path, route] of Object.entries(AUDITED_PAGES)) {
    it(`${path} has a title and a meta description`, () => {
      const descriptors = route.meta!({} as Parameters<MetaFunction>[0]) ?? [];
      expect(descriptors.some((descriptor) => "title" in descriptor)).toBe(true);
      expect(descriptionOf(descriptors)?.length ?? 0).toBeGreaterThan(20);
    });
  }
});
