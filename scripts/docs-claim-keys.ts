/**
 * Writes the staff guide's table of SendClaims keys from the registry of keys and jobs:
 *
 *   npm run docs:claim-keys
 */
import { readFileSync, writeFileSync } from "node:fs";
import { STAFF_GUIDE, withClaimKeyTable } from "./lib/claim-key-table";

const before = readFileSync(STAFF_GUIDE, "utf8");
const after = withClaimKeyTable(before);
if (after === before) console.log(`${STAFF_GUIDE}: the table of claim keys is up to date.`);
else {
  writeFileSync(STAFF_GUIDE, after);
  console.log(`${STAFF_GUIDE}: the table of claim keys was rewritten.`);
}
