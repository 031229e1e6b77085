/**
 * Imported first by the root route, before any schema is built. zod compiles object
 * parsers with `new Function` unless told not to, and its probe for whether it may is
 * reported as a violation of the page's Content-Security-Policy (no 'unsafe-eval') even
 * though zod catches the refusal: Lighthouse counts it against best practices. Our forms
 * are small, so the compiled fast path buys nothing worth the noise.
 */
import { z } from "zod";

z.config({ jitless: true });
