import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/_index";
import { insertAgent, testContext } from "../support/services";

describe("landing page founder counter", () => {
  it("counts founder rows that are pending or approved; rejected, VIP and member rows hold no spot", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const request = new Request("http://localhost/");
    expect(loader({ request, context, params: {} }).foundersLeft).toBe(100);

    await insertAgent(context, { status: "approved" });
    await insertAgent(context, { status: "pending" });
    await insertAgent(context, { status: "rejected" });
    await insertAgent(context, { membershipType: "vip" });
    await insertAgent(context, { membershipType: "member" });
    expect(loader({ request, context, params: {} }).foundersLeft).toBe(98);
  });
});
