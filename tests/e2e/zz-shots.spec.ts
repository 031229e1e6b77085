import { expect, test } from "./fixtures";
import { e2eBaseUrl } from "./support/env";
import { startPushService } from "../mocks/push-service";

for (const width of [390, 1280]) {
  test(`settings shots ${width}`, async ({ seedAgent, waitForReplica, memberPage, javaScriptEnabled }) => {
    const bob = seedAgent({ fullName: "Bob Brooks", pushOn: ["messages", "invitations"] });
    await waitForReplica();
    const page = await memberPage(bob, { width, height: 900 });
    const service = await startPushService();
    for (const deviceName of ["Chrome on Android", "Safari on iPhone"]) {
      const { endpoint, keys } = service.subscribe();
      const added = await page.request.post("/settings/notifications", { form: { intent: "subscribe", endpoint, ...keys, deviceName }, headers: { Origin: e2eBaseUrl }, maxRedirects: 0 });
      expect(added.status()).toBe(302);
    }
    await page.goto("/settings/notifications");
    await page.screenshot({ path: `/work/shots/web-push/settings-${width}-${javaScriptEnabled ? "js-on" : "js-off"}.png`, fullPage: true });
    await service.close();
  });
}
