import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/_index";
import { insertAgent, testContext } from "../support/services";

describe("landing page founder counter", () => {
  it("counts real agent rows, whatever their status", async () => {
    const context = testContext();
    await context.services.store.refresh();
    const request = new Request("http://localhost/");
    expect(loader({ request, context, params: {} }).foundersLeft).toBe(100);

    await insertAgent(context, { status: "approved" });
    await insertAgent(context, { status: "pending" });
    await insertAgent(context, { status: "rejected" });
    expect(loader({ request, context, params: {} }).foundersLeft).toBe(97);
  });
});
