/**
 * A Web Push service stand-in on loopback, speaking RFC 8030 over plain http: it issues
 * subscriptions (an endpoint and the keys of an ECDH pair of its own, so it can read what is
 * sent to them), checks each push's VAPID authorization (RFC 8292: an ES256 JWT whose `aud`
 * is the endpoint's origin, `exp` at most 24 hours ahead, and a `sub`), decrypts the body
 * with http_ece (RFC 8291, aes128gcm) and keeps it with its TTL, Urgency and Topic. Told to,
 * it answers an endpoint 404, 410, 429 (with Retry-After) or 500 instead of 201.
 */
import { createECDH, createPublicKey, randomBytes, randomUUID, verify, type ECDH } from "node:crypto";
import ece from "http_ece";
import { listen, readBody, type StandIn } from "./http";

export type IssuedSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };

type ReceivedPush = {
  subscriptionId: string;
  /** The decrypted body, parsed as JSON. */
  payload: unknown;
  /** The decrypted body as sent. */
  text: string;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  jwt: { aud: string; exp: number; sub: string };
  receivedAt: number;
};

/** What the stand-in answers instead of 201, for the next `times` pushes to one subscription. */
type Answer = { status: 404 | 410 | 429 | 500 | 503; retryAfter?: string; times: number };

export type PushServiceStandIn = StandIn & {
  subscribe(): IssuedSubscription;
  /** Every push accepted (201), oldest first. */
  received: ReceivedPush[];
  /** Every push refused, with the status the stand-in answered. */
  refused: { subscriptionId: string; status: number; at: number }[];
  /** Pushes rejected for a bad VAPID header or body, with the reason: a test expects none. */
  invalid: string[];
  answer(endpoint: string, answer: Answer): void;
  /** The decrypted payload of a push, as the browser's worker would get it. */
  decrypt(endpoint: string, body: Buffer): string;
};

type Held = { ecdh: ECDH; auth: Buffer };

function idOf(endpoint: string): string {
  return new URL(endpoint).pathname.split("/").pop()!;
}

export async function startPushService(): Promise<PushServiceStandIn> {
  const subscriptions = new Map<string, Held>();
  const answers = new Map<string, Answer>();
  const received: ReceivedPush[] = [];
  const refused: PushServiceStandIn["refused"] = [];
  const invalid: string[] = [];

  function decryptFor(id: string, body: Buffer): string {
    const held = subscriptions.get(id);
    if (!held) throw new Error(`No subscription ${id}`);
    return (
      ece.decrypt(body, { version: "aes128gcm", privateKey: held.ecdh, authSecret: held.auth.toString("base64url") }) as Buffer
    ).toString("utf8");
  }

  const standIn = await listen(async (request, response) => {
    const match = /^\/push\/([\w-]+)$/.exec(request.url ?? "");
    const id = match?.[1];
    if (request.method !== "POST" || !id || !subscriptions.has(id)) {
      response.writeHead(404).end();
      return;
    }
    const body = await readBody(request);
    const answer = answers.get(id);
    if (answer && answer.times > 0) {
      answer.times -= 1;
      refused.push({ subscriptionId: id, status: answer.status, at: Date.now() });
      response.writeHead(answer.status, answer.retryAfter ? { "Retry-After": answer.retryAfter } : {}).end();
      return;
    }
    try {
      const jwt = checkVapid(request.headers.authorization, origin);
      if (request.headers["content-encoding"] !== "aes128gcm") throw new Error(`Content-Encoding ${request.headers["content-encoding"]}`);
      const ttl = Number(request.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) throw new Error(`TTL ${request.headers.ttl}`);
      const text = decryptFor(id, body);
      received.push({
        subscriptionId: id,
        payload: JSON.parse(text) as unknown,
        text,
        ttl,
        urgency: header(request.headers.urgency),
        topic: header(request.headers.topic),
        jwt,
        receivedAt: Date.now(),
      });
      response.writeHead(201, { Location: `${origin}/message/${randomUUID()}` }).end();
    } catch (error) {
      invalid.push(String(error));
      response.writeHead(400).end();
    }
  });
  const origin = standIn.url;

  return {
    ...standIn,
    received,
    refused,
    invalid,
    subscribe() {
      const id = randomUUID();
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscriptions.set(id, { ecdh, auth });
      return {
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
      };
    },
    answer(endpoint, answer) {
      answers.set(idOf(endpoint), { ...answer });
    },
    decrypt: (endpoint, body) => decryptFor(idOf(endpoint), body),
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed with that key, for this origin, expiring within 24 hours. */
function checkVapid(authorization: string | undefined, origin: string): ReceivedPush["jwt"] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? "");
  if (!match) throw new Error(`Authorization header ${authorization}`);
  const [token, key] = [match[1]!, match[2]!];
  const [head, claims, signature] = token.split(".") as [string, string, string];
  const header = JSON.parse(Buffer.from(head, "base64url").toString()) as { alg?: string; typ?: string };
  if (header.alg !== "ES256") throw new Error(`JWT alg ${header.alg}`);
  const raw = Buffer.from(key, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) throw new Error("JWT signature does not verify");
  const jwt = JSON.parse(Buffer.from(claims, "base64url").toString()) as ReceivedPush["jwt"];
  if (jwt.aud !== origin) throw new Error(`JWT aud ${jwt.aud}, not ${origin}`);
  const now = Date.now() / 1000;
  if (!(jwt.exp > now && jwt.exp <= now + 24 * 60 * 60)) throw new Error(`JWT exp ${jwt.exp}`);
  if (!/^(mailto:|https:)/.test(jwt.sub ?? "")) throw new Error(`JWT sub ${jwt.sub}`);
  return jwt;
}
