/**
 * Imported first by the root route, before any schema is built. zod compiles object
 * parsers with `new Function` unless told not to, and its probe for whether it may is
 * reported as a violation of the page's Content-Security-Policy (no 'unsafe-eval') even
 * though zod catches the refusal: Lighthouse counts it against best practices. Our forms
 * are small, so the compiled fast path buys nothing worth the noise.
 *
 * zod keeps its settings on `globalThis.__zod_globalConfig` (what `z.config()` writes,
 * created by whichever loads first), so setting it here needs no import of zod: pages
 * without forms do not load zod's core in the browser (4 KB gzipped).
 * tests/e2e/csp-violations.spec.ts fails if the setting stops reaching zod.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;

export {};
