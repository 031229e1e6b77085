/** `stopServices`, which server.ts runs on SIGTERM and SIGINT, ends every job the process runs. */
import { describe, expect, it } from "vitest";
import { memberEventStream } from "../../app/server/messages/event-stream.server";
import { startServices, stopServices } from "../../app/server/service-lifecycle.server";
import { insertAgent, testContext } from "../support/services";

describe("stopping the services", () => {
  it("ends open live-update streams, stops the jobs and the refresh timer, and closes the store", async () => {
    const context = testContext({}, { STORE_REFRESH_SECONDS: "0.05" });
    const { services } = context;
    await services.store.refresh();
    const member = await insertAgent(context);
    startServices(services);
    const stream = memberEventStream({
      events: services.messageEvents,
      memberEmail: member.email,
      signal: new AbortController().signal,
      missedNews: false,
    });
    const streamed = new Response(stream).text();
    let jobRuns = 0;
    services.store.addJob({
      name: "counting",
      run: async () => {
        jobRuns += 1;
      },
    });
    await expect.poll(() => jobRuns).toBeGreaterThan(0);

    await stopServices(services);
    await expect(streamed).resolves.toBe("retry: 3000\n\n");
    const runsAtStop = jobRuns;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(jobRuns).toBe(runsAtStop);
    await expect(services.store.refresh()).rejects.toThrow("The store is stopped");
  });
});
