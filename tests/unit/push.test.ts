import { describe, expect, it } from "vitest";
import { deviceNameFrom, pushOnFor, wantsPush } from "../../app/domain/push";
import { pushSubscriptionSchema } from "../../app/domain/push-subscription";

describe("a device's name as the browser reports it", () => {
  it("reads the user agent string", () => {
    expect(
      deviceNameFrom(
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      ),
    ).toBe("Chrome on Android");
    expect(
      deviceNameFrom(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari on iPhone");
    expect(deviceNameFrom("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe("Firefox on Windows");
  });

  it("prefers the client hints where the browser gives them", () => {
    const brands = [{ brand: "Not_A Brand" }, { brand: "Chromium" }, { brand: "Microsoft Edge" }];
    expect(deviceNameFrom("Mozilla/5.0 (Windows NT 10.0)", { platform: "Windows", brands })).toBe("Microsoft Edge on Windows");
  });
});

describe("push choices", () => {
  it("are off until turned on, only for kinds with push", () => {
    expect(wantsPush({}, "messages")).toBe(false);
    expect(wantsPush({ pushOn: ["messages", "digest"] }, "messages")).toBe(true);
    expect(wantsPush({ pushOn: ["messages", "digest"] }, "digest")).toBe(false);
    expect(pushOnFor(["invitations", "messages"])).toEqual(["messages", "invitations"]);
  });
});

describe("a browser's subscription", () => {
  const keys = { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) };
  const schema = pushSubscriptionSchema({ production: true });

  it("takes an https endpoint of a browser's push service and base64url keys of the right lengths, padded or not", () => {
    const parsed = schema.parse({
      intent: "subscribe",
      endpoint: "https://fcm.googleapis.com/fcm/send/abc",
      p256dh: `${keys.p256dh}=`,
      auth: `${keys.auth}==`,
    });
    expect(parsed).toMatchObject({ ...keys, deviceName: "Unnamed device" });
  });

  it("refuses other addresses and keys", () => {
    for (const fields of [
      { endpoint: "https://intranet.example.com/admin", ...keys },
      { endpoint: "https://fcm.googleapis.com.evil.example/send/abc", ...keys },
      { endpoint: "https://10.0.0.5/push", ...keys },
      { endpoint: "http://fcm.googleapis.com/fcm/send/abc", ...keys },
      { endpoint: "https://user:pass@push.example/abc", ...keys },
      { endpoint: "https://push.example/abc", ...keys, p256dh: `A${"A".repeat(86)}` },
      { endpoint: "https://push.example/abc", ...keys, p256dh: `B${"A".repeat(85)}+` },
      { endpoint: "https://push.example/abc", ...keys, auth: "A".repeat(21) },
    ])
      expect(schema.safeParse({ intent: "subscribe", ...fields }).success, JSON.stringify(fields)).toBe(false);
  });
});
