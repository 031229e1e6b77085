/**
 * Signing in to the Sheets API: a service account (its key file or its JSON), or a fixed
 * token for the local fake Sheets server.
 */
import { readFileSync } from "node:fs";
import { JWT, OAuth2Client } from "google-auth-library";
import type { SheetsCredentials } from "../../config.server";

const SCOPES = ["https://www.googleapis.com/auth/spreadsheets"];

/** Where google-auth-library sends a service account's signed assertion, whatever the key's `token_uri` says. */
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/**
 * A service account client that honours the key's `token_uri`: google-auth-library's JWT
 * client ignores it and always posts to Google's token URL, so the request is redirected.
 * The assertion's audience stays Google's token URL, as Google requires. This is what lets
 * the sign-in path run against a local token endpoint (the fake Sheets server's).
 */
function serviceAccountClient(key: Record<string, unknown>): JWT {
  const text = (name: string) => (typeof key[name] === "string" ? (key[name] as string) : undefined);
  const client = new JWT({ email: text("client_email"), key: text("private_key"), keyId: text("private_key_id"), scopes: SCOPES });
  const tokenUri = text("token_uri");
  if (tokenUri !== undefined && tokenUri !== GOOGLE_TOKEN_URL) {
    client.transporter.interceptors.request.add({
      resolved: async (request) => (String(request.url) === GOOGLE_TOKEN_URL ? { ...request, url: new URL(tokenUri) } : request),
    });
  }
  return client;
}

/** The key file GOOGLE_APPLICATION_CREDENTIALS names (its presence is checked with the configuration). */
function keyFileJson(file: string): Record<string, unknown> {
  try {
    const key: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof key === "object" && key !== null) return key as Record<string, unknown>;
  } catch {
    // Reported below, in words an operator can act on.
  }
  throw new Error(
    `GOOGLE_APPLICATION_CREDENTIALS: ${file} is not a service account key file (the JSON downloaded for the service account).`,
  );
}

export function authFor(credentials: SheetsCredentials): OAuth2Client {
  switch (credentials.kind) {
    case "keyFile":
      // Read here rather than by GoogleAuth, whose client would ignore the file's token_uri.
      return serviceAccountClient(keyFileJson(credentials.path));
    case "json":
      return serviceAccountClient(credentials.json);
    case "fixedToken": {
      // A token with no expiry and no refresh token: the client never asks Google for another.
      const client = new OAuth2Client();
      client.setCredentials({ access_token: "local-fake-sheets-token" });
      return client;
    }
  }
}
