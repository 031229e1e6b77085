/** The claim protocol itself (docs/decisions/0029), on the SQLite store: several processes on one file, a failed send. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../app/server/config.server";
import { createSendClaims } from "../../app/server/send-claims.server";
import { createStoreFromConfig, type Store } from "../../app/server/store/store.server";
import { testContext } from "../support/services";

const quiet = { error: () => undefined };

/** `count` stores on one SQLite file, as separate processes would have, each read once. */
async function storesOnOneFile(count: number): Promise<Store[]> {
  const { dataDir } = testContext().services.config;
  const stores = Array.from({ length: count }, () => createStoreFromConfig(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir })));
  for (const store of stores) await store.refresh();
  return stores;
}

describe("send claims", () => {
  it("give each key to exactly one of several instances claiming it at once, and to none again", async () => {
    const stores = await storesOnOneFile(3);
    const claims = stores.map((store, i) => createSendClaims({ store, instanceId: `instance-${i}`, log: quiet }));
    const now = new Date();
    const keys = ["decision:a:approved", "digest:2026-11-23:a", "digest:2026-11-23:b"];
    const won = await Promise.all(claims.map((claim) => claim.claim(keys, now)));
    for (const key of keys) expect(won.filter((set) => set.has(key))).toHaveLength(1);

    await Promise.all(stores.map((store) => store.refresh()));
    const again = await Promise.all(claims.map((claim) => claim.claim(keys, now)));
    expect(again.map((set) => set.size)).toEqual([0, 0, 0]);
    await Promise.all(stores.map((store) => store.stop()));
  });

  it("record a send that failed under its key, pass the error on, and never send that key again", async () => {
    const [store] = (await storesOnOneFile(1)) as [Store];
    const claims = createSendClaims({ store, instanceId: "here", log: quiet });
    const now = new Date();
    await expect(
      claims.sendOnce("decision:b:approved", now, () => Promise.reject(new Error("SendGrid refused the mail: status 503"))),
    ).rejects.toThrow("status 503");
    const rows = await store.sendClaims.readStored();
    expect(rows.map(({ key, outcome, note }) => ({ key, outcome, note }))).toEqual([
      { key: "decision:b:approved", outcome: "claimed", note: "" },
      { key: "decision:b:approved", outcome: "failed", note: "SendGrid refused the mail: status 503" },
    ]);
    let sent = 0;
    expect(await claims.sendOnce("decision:b:approved", now, async () => void (sent += 1))).toBe("taken");
    expect(sent).toBe(0);
    await store.stop();
  });

  it("move a throttled chain on past each claimed link, failed or sent", async () => {
    const [store] = (await storesOnOneFile(1)) as [Store];
    const claims = createSendClaims({ store, instanceId: "here", log: quiet });
    const now = new Date();
    expect(claims.nextInChain("response:r1")).toBe("response:r1#0");
    await claims.sendOnce("response:r1#0", now, () => Promise.reject(new Error("down"))).catch(() => undefined);
    expect(claims.nextInChain("response:r1")).toBe("response:r1#1");
    expect(await claims.sendOnce("response:r1#1", now, async () => undefined)).toBe("sent");
    expect(claims.nextInChain("response:r1")).toBe("response:r1#2");
    await store.stop();
  });
});
