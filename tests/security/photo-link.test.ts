import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { photoSource } from "../../app/domain/member-profile";
import { action, loader } from "../../app/routes/edit-profile";
import {
  createPhotoFetcher,
  isPublicAddress,
  type PhotoFetcher,
  type PhotoFetchOptions,
} from "../../app/server/images/remote-photo.server";
import { outcome, sessionCookie } from "../integration/requests-support";
import { insertAgent, testContext } from "../support/services";

const TLS_DIR = path.join(import.meta.dirname, "../fixtures/tls");
const HOST = "photos.example.test";
const PASSWORD = "correct horse battery";

describe("which photos pages show", () => {
  it("only the app's own copies: an upload here or on Cloudinary; any other host shows the initials", () => {
    expect(photoSource("/uploads/profile-0b7c.jpg")).toBe("/uploads/profile-0b7c.jpg");
    expect(photoSource("https://res.cloudinary.com/demo/image/upload/profiles/profile-1.jpg")).toBe(
      "https://res.cloudinary.com/demo/image/upload/profiles/profile-1.jpg",
    );
    for (const value of [
      "https://tracker.example/pixel.jpg",
      "https://res.cloudinary.com.evil.example/a.jpg",
      "https://res.cloudinary.com@evil.example/a.jpg",
      "/uploads/../store.sqlite",
      "/uploads/a.svg",
      "/member-dashboard",
      "//evil.example/a.jpg",
      "javascript:alert(1)",
    ]) {
      expect(photoSource(value), value).toBeNull();
    }
  });
});

describe("which addresses the photo fetcher may reach", () => {
  it("refuses loopback, private, link-local, carrier, reserved and multicast addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.10",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "198.18.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fc00::5",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2001:db8::1",
      "not an address",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("allows public addresses", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:2800:220:1:248:1893:25c8:1946"])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it("refuses non-https links and literal internal addresses without connecting", async () => {
    const fetchPhoto = createPhotoFetcher({ timeoutMs: 2_000 });
    for (const link of [
      "http://example.com/a.jpg",
      "ftp://example.com/a.jpg",
      "file:///etc/passwd",
      "https://127.0.0.1/a.jpg",
      "https://[::1]/a.jpg",
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/a.jpg",
      "https://0x7f000001/a.jpg",
      "https://2130706433/a.jpg",
      "https://[::ffff:7f00:1]/a.jpg",
      "https://user:pass@example.com/a.jpg",
      "not a link",
    ]) {
      expect(await fetchPhoto(link), link).toEqual({ ok: false, reason: "unreachable" });
    }
  });

  it("refuses a name that resolves to an internal address (checked after resolution)", async () => {
    const names: Record<string, string> = {
      "localhost.example.test": "127.0.0.1",
      "metadata.example.test": "169.254.169.254",
      "mixed.example.test": "10.0.0.7",
    };
    const resolve = ((
      hostname: string,
      _options: unknown,
      callback: (error: null, addresses: Array<{ address: string; family: number }>) => void,
    ) => {
      const internal = names[hostname] ?? "127.0.0.1";
      callback(
        null,
        hostname === "mixed.example.test"
          ? [
              { address: "93.184.216.34", family: 4 },
              { address: internal, family: 4 },
            ]
          : [{ address: internal, family: 4 }],
      );
    }) as unknown as PhotoFetchOptions["resolve"];
    const fetchPhoto = createPhotoFetcher({ resolve, timeoutMs: 2_000 });
    for (const name of Object.keys(names))
      expect(await fetchPhoto(`https://${name}/a.jpg`), name).toEqual({ ok: false, reason: "unreachable" });
    expect(await createPhotoFetcher({ timeoutMs: 2_000 })("https://localhost/a.jpg")).toEqual({ ok: false, reason: "unreachable" });
  });
});

/**
 * A local https server standing in for a photo host. The fetcher under test is told
 * to resolve photos.example.test to it and to allow that one loopback address: the
 * only widening of the guards, so the size, time and redirect caps run for real.
 */
describe("fetching a linked photo", () => {
  let server: Server;
  let base = "";
  let png: Buffer;
  const routes = new Map<string, (response: import("node:http").ServerResponse) => void>();

  beforeAll(async () => {
    png = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    server = createServer(
      { key: readFileSync(path.join(TLS_DIR, `${HOST}.key`)), cert: readFileSync(path.join(TLS_DIR, `${HOST}.crt`)) },
      (request, response) => {
        const route = routes.get(request.url ?? "");
        if (route) route(response);
        else response.writeHead(404).end();
      },
    );
    server.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `https://${HOST}:${(server.address() as AddressInfo).port}`;
    routes.set("/photo.png", (response) => response.writeHead(200, { "Content-Type": "image/png" }).end(png));
    routes.set("/text.png", (response) => response.writeHead(200, { "Content-Type": "image/png" }).end("just some text"));
    routes.set("/huge.png", (response) => response.writeHead(200, { "Content-Type": "image/png" }).end(Buffer.alloc(6 * 1024 * 1024)));
    routes.set("/huge-chunked.png", (response) => {
      response.writeHead(200, { "Content-Type": "image/png" });
      for (let i = 0; i < 12; i += 1) response.write(Buffer.alloc(512 * 1024));
      response.end();
    });
    routes.set("/stall.png", (response) => response.writeHead(200, { "Content-Type": "image/png" }).write(png.subarray(0, 10)));
    routes.set("/to-photo", (response) => response.writeHead(302, { Location: "/photo.png" }).end());
    routes.set("/to-metadata", (response) => response.writeHead(302, { Location: "https://169.254.169.254/latest/meta-data/" }).end());
    routes.set("/to-http", (response) => response.writeHead(302, { Location: `http://${HOST}/photo.png` }).end());
    routes.set("/loop", (response) => response.writeHead(302, { Location: "/loop" }).end());
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  function testFetcher(overrides: Partial<PhotoFetchOptions> = {}): PhotoFetcher {
    const resolve = ((
      hostname: string,
      _options: unknown,
      callback: (error: Error | null, addresses: Array<{ address: string; family: number }>) => void,
    ) => {
      if (hostname === HOST) callback(null, [{ address: "127.0.0.1", family: 4 }]);
      else callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
    }) as unknown as PhotoFetchOptions["resolve"];
    return createPhotoFetcher({
      resolve,
      allowAddress: (address) => address === "127.0.0.1",
      ca: readFileSync(path.join(TLS_DIR, `${HOST}.crt`)),
      timeoutMs: 2_000,
      ...overrides,
    });
  }

  it("fetches the photo, following a redirect on the same guards", async () => {
    expect(await testFetcher()(`${base}/photo.png`)).toEqual({ ok: true, bytes: png });
    expect(await testFetcher()(`${base}/to-photo`)).toEqual({ ok: true, bytes: png });
  });

  it("refuses redirects to internal or plain-http addresses, and redirect loops", async () => {
    for (const route of ["/to-metadata", "/to-http", "/loop"])
      expect(await testFetcher()(`${base}${route}`), route).toEqual({ ok: false, reason: "unreachable" });
  });

  it("stops reading past 5 MB, declared or not", async () => {
    expect(await testFetcher()(`${base}/huge.png`)).toEqual({ ok: false, reason: "too-large" });
    expect(await testFetcher()(`${base}/huge-chunked.png`)).toEqual({ ok: false, reason: "too-large" });
  });

  it("gives up on a host that stalls, at the time cap", async () => {
    // The host never finishes its answer: without the cap this would wait for ever.
    expect(await testFetcher({ timeoutMs: 300 })(`${base}/stall.png`)).toEqual({ ok: false, reason: "unreachable" });
  });

  it("refuses a certificate it does not trust", async () => {
    expect(await testFetcher({ ca: undefined })(`${base}/photo.png`)).toEqual({ ok: false, reason: "unreachable" });
  });

  describe("through edit profile", { timeout: 30_000 }, () => {
    let context: AppLoadContext;
    let cookie = "";
    let agentId = "";

    beforeEach(async () => {
      context = testContext();
      context.services.photoFetcher = testFetcher();
      const agent = await insertAgent(context, { password: PASSWORD });
      agentId = agent.id;
      cookie = await sessionCookie(context, agent);
    });

    function save(photoUrl: string) {
      const body = new URLSearchParams({ fullName: "Dana Reyes", city: "Dallas", state: "TX", photoUrl, password: PASSWORD });
      return outcome(() =>
        action({
          request: new Request("http://localhost/edit-profile", { method: "POST", body, headers: { Cookie: cookie } }),
          context,
          params: {},
        }),
      );
    }
    const stored = () => context.services.store.agents.get(agentId)?.photoUrl;

    it("stores the app's own resized copy, never the member's link", async () => {
      const saved = (await save(`${base}/photo.png`)) as Response;
      expect(saved.headers.get("Location")).toBe("/edit-profile");
      expect(stored()).toMatch(/^\/uploads\/profile-[0-9a-f-]+\.jpg$/);
      const page = await loader({
        request: new Request("http://localhost/edit-profile", { headers: { Cookie: cookie } }),
        context,
        params: {},
      });
      expect(page.data.profile.photoUrl).toBe(stored());
    });

    it("keeps the current stored photo when the field is sent back unchanged", async () => {
      await save(`${base}/photo.png`);
      const first = stored() ?? "";
      context.services.photoFetcher = () => Promise.reject(new Error("must not fetch the app's own photo"));
      await save(first);
      expect(stored()).toBe(first);
    });

    it("re-hosts a photo from another Cloudinary cloud rather than trusting it", async () => {
      const fetched: string[] = [];
      const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: "#000000" } })
        .png()
        .toBuffer();
      context.services.photoFetcher = async (link) => {
        fetched.push(link);
        return { ok: true, bytes: png };
      };
      const foreign = "https://res.cloudinary.com/someone-else/image/upload/pixel.png";
      await save(foreign);
      expect(fetched).toEqual([foreign]);
      expect(stored()).toMatch(/^\/uploads\/profile-[0-9a-f-]+\.jpg$/);
    });

    it("refuses internal addresses, non-images and oversize files beside the field, storing nothing", async () => {
      context.services.photoFetcher = createPhotoFetcher({ timeoutMs: 2_000 });
      for (const [link, message] of [
        ["https://127.0.0.1/photo.png", "We could not fetch an image from that link. Please check it, or upload the photo instead."],
        [
          "https://169.254.169.254/latest/meta-data/",
          "We could not fetch an image from that link. Please check it, or upload the photo instead.",
        ],
      ] as const) {
        const refused = (await save(link)) as { init: ResponseInit; data: { error: Record<string, string[]> } };
        expect(refused.init.status).toBe(400);
        expect(refused.data.error.photoUrl).toEqual([message]);
      }
      context.services.photoFetcher = testFetcher();
      for (const [route, message] of [
        ["/text.png", "Please upload a JPG, PNG, or WebP image"],
        ["/huge.png", "File size must be less than 5MB"],
      ] as const) {
        const refused = (await save(`${base}${route}`)) as { init: ResponseInit; data: { error: Record<string, string[]> } };
        expect(refused.init.status).toBe(400);
        expect(refused.data.error.photoUrl).toEqual([message]);
      }
      expect(stored()).toBe("");
    });
  });
});
