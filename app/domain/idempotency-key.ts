import { z } from "zod";
import { readIdempotencyKey } from "./idempotency-key-text";

/**
 * The hidden `idempotencyKey` of a form whose submission adds a row (docs/decisions/0032): made by
 * the server when it renders the form and sent back with every submission of that form, so
 * a submission sent again after an answer that was lost stores one row. Anything else sent
 * in its place is ignored (the row then gets a fresh id, as before).
 */
export const idempotencyKeyField = z.string().transform(readIdempotencyKey).optional();
