/** The claim protocol itself (docs/decisions/0029), on the SQLite store: several processes on one file, a failed send. */
import { describe, expect, it, vi } from "vitest";
import { digestWeekDue } from "../../app/domain/digest";
import { loadConfig } from "../../app/server/config.server";
import { pruneSendClaimsDaily } from "../../app/server/jobs/send-claims-pruning.server";
import { createSendClaims, type SendClaims } from "../../app/server/send-claims.server";
import { createStoreFromConfig, StoreWriteError, type Store } from "../../app/server/store/store.server";
import { openSheetsStore, useFakeSheets } from "../support/fake-sheets";
import { agentRecord } from "../support/records";
import { testContext } from "../support/services";

const { fake, opened } = useFakeSheets();
const DAY_MS = 86_400_000;

const quiet = { info: () => undefined, error: () => undefined };

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

  it("reject, rather than answer taken, when the claim cannot be stored, and leave the key free for the next try", async () => {
    const [store] = (await storesOnOneFile(1)) as [Store];
    const claims = createSendClaims({ store, instanceId: "here", log: quiet });
    const now = new Date();
    const outage = vi
      .spyOn(store.sendClaims, "insert")
      .mockRejectedValue(new StoreWriteError("SendClaims", { cause: new Error("ECONNREFUSED") }));
    await expect(claims.claim(["reply-mail:abc"], now)).rejects.toBeInstanceOf(StoreWriteError);
    outage.mockRestore();
    expect(await claims.claim(["reply-mail:abc"], now)).toEqual(new Set(["reply-mail:abc"]));
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

  it("stay bounded over a simulated year of mail: rows whose keys cannot recur are deleted daily, the others kept", async () => {
    const [store] = (await storesOnOneFile(1)) as [Store];
    const claims = createSendClaims({ store, instanceId: "here", log: quiet });
    const start = Date.parse("2026-01-05T15:00:00.000Z");
    let today = new Date(start);
    const pruning = pruneSendClaimsDaily({ store, claims, clock: () => today, log: quiet });
    const members = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.agents.insert(agentRecord({ email: `m${i}@example.com` }))),
    );
    for (const member of members) expect(await claims.claimAs(`agent-email:${member.email}`, `email-claim-${member.id}`, today)).toBe(true);
    const conversations = ["message:c1/m0@example.com", "message:c2/m1@example.com", "response:r1"];

    let claimed = 0;
    let largest = 0;
    for (let day = 0; day < 365; day += 1) {
      today = new Date(start + day * DAY_MS);
      // Two notifications a day in each conversation, each on the next link of its chain.
      for (const subject of conversations) {
        for (let i = 0; i < 2; i += 1) {
          expect(await claims.sendOnce(claims.nextInChain(subject), today, async () => undefined)).toBe("sent");
          claimed += 1;
        }
      }
      // A contact-form message a day, mailed to support once.
      expect(await claims.sendOnce(`contact:contact-${day}`, today, async () => undefined)).toBe("sent");
      claimed += 1;
      // Mondays: the week's digest to every member, its run and its end.
      const week = digestWeekDue(today);
      if (week.week === today.toISOString().slice(0, 10)) {
        const keys = [
          `digest-run:${week.week}#0`,
          ...members.map((member) => `digest:${week.week}:${member.id}`),
          `digest-done:${week.week}`,
        ];
        expect((await claims.claim(keys, today)).size).toBe(keys.length);
        claimed += keys.length;
      }
      // As the app does: a refresh (which starts the day's pruning), then the pruning looked at again.
      await store.refresh();
      await pruning.run();
      largest = Math.max(largest, (await store.sendClaims.readStored()).length);
    }
    await pruning.stop();

    expect(claimed).toBeGreaterThan(2_500);
    // At most: the e-mail claims, two days of each chain, two weeks of digests, a month and two days of contact mails, two days of pruning claims.
    expect(largest).toBeLessThanOrEqual(members.length + conversations.length * 5 + 2 * (members.length + 2) + 32 + 2);
    const stored = await store.sendClaims.readStored();
    expect(stored.filter((row) => row.key.startsWith("agent-email:"))).toHaveLength(members.length);
    // Each chain goes on from its highest link: no link is claimed twice after the ones below it went.
    for (const subject of conversations) expect(claims.nextInChain(subject)).toBe(`${subject}#730`);
    expect(new Set(stored.map((row) => row.key)).size).toBe(stored.length);
    await store.stop();
  }, 120_000);
});

describe("send claims on Google Sheets (the fake server)", () => {
  async function twoInstances(): Promise<[Store, Store, SendClaims, SendClaims]> {
    const { store: first, spreadsheetId } = await openSheetsStore(fake, "prune");
    const second = createStoreFromConfig(
      loadConfig({
        NODE_ENV: "test",
        DATA_DIR: testContext().services.config.dataDir,
        GOOGLE_SHEETS_ID: spreadsheetId,
        GOOGLE_SHEETS_API_URL: fake.url,
      }),
    );
    await second.refresh();
    opened.push(first, second);
    return [
      first,
      second,
      createSendClaims({ store: first, instanceId: "one", log: quiet }),
      createSendClaims({ store: second, instanceId: "two", log: quiet }),
    ];
  }

  it("delete the rows that cannot recur from the sheet, and an instance that has not read since still claims right", async () => {
    const [first, second, one, two] = await twoInstances();
    const then = new Date("2026-11-02T15:00:00.000Z");
    for (let link = 0; link < 3; link += 1) await one.sendOnce(one.nextInChain("message:c/a@example.com"), then, async () => undefined);
    await one.claim(["digest:2026-11-02:a", "agent-email:a@example.com"], then);
    await second.refresh();
    expect(two.nextInChain("message:c/a@example.com")).toBe("message:c/a@example.com#3");

    const later = new Date("2026-11-25T15:00:00.000Z");
    expect(await one.prune(later)).toBe(3);
    const keys = (await first.sendClaims.readStored()).map((row) => row.key);
    expect(keys).toEqual(["message:c/a@example.com#2", "agent-email:a@example.com"]);

    // The second instance still shows the deleted rows: both name the same next link, and one of them wins it.
    expect(two.nextInChain("message:c/a@example.com")).toBe(one.nextInChain("message:c/a@example.com"));
    const next = one.nextInChain("message:c/a@example.com");
    const won = await Promise.all([one.claim([next], later), two.claim([next], later)]);
    expect(won.filter((set) => set.has(next))).toHaveLength(1);
    // A key claimed before the deletion stays claimed for the instance that read the tab since.
    await second.refresh();
    expect((await two.claim(["agent-email:a@example.com"], later)).size).toBe(0);
  }, 60_000);
});
