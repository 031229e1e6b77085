import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openLicenseTable } from "../../app/server/licenses/license-table.server";

describe("a license file loaded before the sponsor's number and the e-mail were kept", () => {
  it("opens with those columns blank, and a new load fills them", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "licenses-")), "trec-licenses.sqlite");
    const old = new Database(file);
    old.exec(`
      CREATE TABLE licenses (key TEXT NOT NULL, license_number TEXT NOT NULL, license_type TEXT NOT NULL, full_name TEXT NOT NULL,
        suffix TEXT NOT NULL, status TEXT NOT NULL, expiration TEXT NOT NULL, sponsor_name TEXT NOT NULL);
      INSERT INTO licenses VALUES ('654321', '0654321', 'SALE', 'REYES, DANA', '', 'Current and active', '2027-06-30', 'LONE STAR REALTY LLC');
    `);
    old.close();
    const table = openLicenseTable(file);
    expect(table.lookup("654321")).toMatchObject({ sponsorName: "LONE STAR REALTY LLC", sponsorLicenseNumber: "", email: "" });
    async function* records() {
      yield { ...table.lookup("654321")!, sponsorLicenseNumber: "9001234", email: "dana@example.com" };
    }
    await table.replace(records(), "test");
    expect(table.lookup("654321")).toMatchObject({ sponsorLicenseNumber: "9001234", email: "dana@example.com" });
    table.close();
  });
});
