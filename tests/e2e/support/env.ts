import { tmpdir } from "node:os";
import path from "node:path";

/** Shared by the Playwright config and the tests: where the app under test runs and keeps its files. */
const port = process.env.E2E_PORT ?? "3199";
export const e2eBaseUrl = `http://127.0.0.1:${port}`;
export const e2eDataDir = process.env.E2E_DATA_DIR ?? path.join(tmpdir(), `referral-e2e-${port}`);
/** Unlocks /healthz's details (the replica's last refresh), which the tests wait on. */
export const e2eHealthToken = "e2e-health-token-0123456789abcdef";
export const e2eHealthHeaders = { Authorization: `Bearer ${e2eHealthToken}` };
