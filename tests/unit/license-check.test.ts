import { describe, expect, it } from "vitest";
import {
  brokersMatch,
  checkTexasLicense,
  lapseVerdict,
  LicenseDataError,
  licenseKey,
  namesMatch,
  oklahomaVerdict,
  parseTrecDate,
  parseTrecLine,
  readTrecRecord,
  TREC_FILE_COLUMNS,
  type TrecLicense,
} from "../../app/domain/license-check";
import { CP850_HIGH, decodeCp850, trecFileRecords } from "../../app/server/licenses/license-source.server";

/** A line of trecfile.txt with the given fields set and the rest blank. */
function line(fields: Partial<Record<(typeof TREC_FILE_COLUMNS)[number], string>>): string {
  return TREC_FILE_COLUMNS.map((column) => fields[column] ?? "").join("\t");
}

const license: TrecLicense = {
  licenseNumber: "0654321",
  licenseType: "SALE",
  fullName: "REYES, DANA MARIE",
  suffix: "",
  status: "Current and active",
  expiration: "2027-06-30",
  sponsorName: "LONE STAR REALTY LLC",
  sponsorLicenseNumber: "9001234",
  email: "",
};

describe("name matching", () => {
  it.each([
    ["Dana Reyes", "REYES, DANA MARIE"],
    ["José Peña", "Jose Pena"],
    ["Robert L. Smith Jr.", "SMITH, ROBERT"],
    ["William Harris III", "William J Harris"],
    ["Mary-Kate O'Brien", "OBRIEN, MARY-KATE"],
    ["  dana   reyes ", "Dana Reyes, Sr."],
    ["Nguyễn Văn An", "NGUYEN VAN AN"],
  ])("%s matches %s", (applicant, onLicense) => {
    expect(namesMatch(applicant, onLicense)).toBe(true);
  });

  it.each([
    ["Dana Reyes", "REYES, DIANA"],
    ["Robert Smith", "Robert Smithers"],
    ["Dana", "Dana Reyes"],
    ["Dana Reyes", ""],
  ])("%s does not match %s", (applicant, onLicense) => {
    expect(namesMatch(applicant, onLicense)).toBe(false);
  });
});

describe("broker matching", () => {
  it.each([
    ["Keller Williams", "KELLER WILLIAMS REALTY INC"],
    ["Lone Star Realty, LLC", "LONE STAR REALTY LLC"],
    ["The Ebby Halliday Companies", "EBBY HALLIDAY COMPANIES"],
    ["Smith & Jones Realty", "SMITH AND JONES REALTY, L.L.C."],
    ["Bryan Bjerke", "BJERKE, BRYAN KEITH"],
  ])("%s matches %s", (stated, sponsor) => {
    expect(brokersMatch(stated, sponsor)).toBe(true);
  });

  it.each([
    ["Keller Williams", "COLDWELL BANKER REALTY"],
    ["Realty", "EXP REALTY LLC"],
    ["Lone Star Realty Group", "LONE OAK REALTY"],
    ["", "LONE STAR REALTY LLC"],
  ])("%s does not match %s", (stated, sponsor) => {
    expect(brokersMatch(stated, sponsor)).toBe(false);
  });
});

describe("reading TREC's file", () => {
  it("reads a line in the published layout", () => {
    const record = parseTrecLine(
      line({
        license_type: "SALE",
        license_number: "0654321",
        full_name: "REYES, DANA MARIE",
        license_status: "20",
        license_expiration_date: "06/30/2027",
        related_license_full_name: "LONE STAR REALTY LLC",
        related_license_number: "9001234",
      }),
      7,
    );
    expect(record).toEqual(license);
  });

  it("refuses a line with missing fields, naming the line and the first missing field", () => {
    const short = line({ license_number: "1" }).split("\t").slice(0, 10).join("\t");
    expect(() => parseTrecLine(short, 42)).toThrow(LicenseDataError);
    expect(() => parseTrecLine(short, 42)).toThrow("line 42, field phone_number: expected 33 tab-separated fields, found 10");
  });

  it("refuses a record without a license number or with an unreadable date, naming the field", () => {
    expect(() => parseTrecLine(line({ license_number: "" }), 3)).toThrow("line 3, field license_number: is empty");
    expect(() => parseTrecLine(line({ license_number: "1", license_expiration_date: "31/12/2027" }), 4)).toThrow(
      "line 4, field license_expiration_date",
    );
    expect(() => readTrecRecord({ license_number: "ABC" }, "API row 9")).toThrow("API row 9, field license_number");
  });

  it("reads TREC's dates and the API's timestamps, and refuses impossible ones", () => {
    expect(parseTrecDate("6/30/2027")).toBe("2027-06-30");
    expect(parseTrecDate("2027-06-30T00:00:00.000")).toBe("2027-06-30");
    expect(parseTrecDate("02/30/2027")).toBeNull();
    expect(parseTrecDate("2027")).toBeNull();
  });

  it("looks numbers up without leading zeros or the type suffix", () => {
    expect(licenseKey("0654321")).toBe("654321");
    expect(licenseKey("654321-SA")).toBe("654321");
    expect(licenseKey(" #654321 ")).toBe("654321");
  });

  it("reads lines split across the stream's chunks, skips blank lines and reports progress", async () => {
    const bytes = Buffer.from(
      `${line({ license_number: "1", full_name: "A B" })}\r\n\r\n${line({ license_number: "2", full_name: "C D" })}`,
      "latin1",
    );
    async function* chunks() {
      for (let start = 0; start < bytes.length; start += 7) yield bytes.subarray(start, start + 7);
    }
    const progress: number[] = [];
    const records = [];
    for await (const record of trecFileRecords(chunks(), bytes.length, (p) => progress.push(p.bytes))) records.push(record);
    expect(records.map((record) => [record.licenseNumber, record.fullName])).toEqual([
      ["1", "A B"],
      ["2", "C D"],
    ]);
    expect(progress.at(-1)).toBe(bytes.length);
  });

  it("decodes code page 850, TREC's encoding", () => {
    expect(CP850_HIGH).toHaveLength(128);
    expect(decodeCp850(Uint8Array.from([0x50, 0x65, 0xa4, 0x61, 0x00, 0x20, 0x4a, 0x6f, 0x73, 0x82]))).toBe("Peña José");
  });
});

describe("the verdict staff read", () => {
  const applicant = { fullName: "Dana Reyes", email: "dana@example.com", brokerage: "Lone Star Realty", licenseNumber: "654321" };

  it("says active, name and broker match for a clean record, and qualifies it for automatic approval", () => {
    const result = checkTexasLicense(applicant, license, "2026-11-23");
    expect(result.check).toBe("TX active, name matches, broker matches");
    expect(result.note).toBe(
      "Sales agent 0654321: Current and active; expires 2027-06-30; name on license: REYES, DANA MARIE; sponsoring broker: LONE STAR REALTY LLC (license 9001234)",
    );
    expect(result.qualifiesForAutoApproval).toBe(true);
  });

  it("says the e-mail matches TREC's when the applicant's is the one on file, whatever its case", () => {
    const onFile = { ...license, email: "dana.reyes@lonestar.example" };
    expect(checkTexasLicense({ ...applicant, email: "Dana.Reyes@LoneStar.example" }, onFile, "2026-11-23").check).toBe(
      "TX active, name matches, broker matches, e-mail matches TREC",
    );
    expect(checkTexasLicense(applicant, onFile, "2026-11-23").check).toBe("TX active, name matches, broker matches");
    // A record with no e-mail on file matches nobody's, a blank one included.
    expect(checkTexasLicense({ ...applicant, email: "" }, license, "2026-11-23").check).toBe("TX active, name matches, broker matches");
  });

  it("names the sponsor alone when TREC gives no related license number, and none when there is no sponsor", () => {
    expect(checkTexasLicense(applicant, { ...license, sponsorLicenseNumber: "" }, "2026-11-23").note).toMatch(
      /; sponsoring broker: LONE STAR REALTY LLC$/,
    );
    expect(checkTexasLicense(applicant, { ...license, sponsorName: "", sponsorLicenseNumber: "" }, "2026-11-23")).toMatchObject({
      check: "TX active, name matches, no sponsoring broker",
      note: expect.stringMatching(/; sponsoring broker: \(none\)$/) as unknown,
    });
  });

  it("says expired when the date has passed even if the status was not updated", () => {
    expect(checkTexasLicense(applicant, { ...license, expiration: "2026-10-31" }, "2026-11-23").check).toBe(
      "TX expired, name matches, broker matches",
    );
    expect(checkTexasLicense(applicant, { ...license, status: "Expired" }, "2026-11-23").check).toBe(
      "TX expired, name matches, broker matches",
    );
  });

  it("does not qualify a license expiring within 30 days, a different name or an inactive license", () => {
    expect(checkTexasLicense(applicant, { ...license, expiration: "2026-12-15" }, "2026-11-23").qualifiesForAutoApproval).toBe(false);
    expect(checkTexasLicense({ ...applicant, fullName: "Diana Reyes" }, license, "2026-11-23")).toMatchObject({
      check: "TX active, name differs, broker matches",
      qualifiesForAutoApproval: false,
    });
    expect(checkTexasLicense(applicant, { ...license, status: "Current and inactive" }, "2026-11-23")).toMatchObject({
      check: "TX inactive, name matches, broker matches",
      qualifiesForAutoApproval: false,
    });
  });

  it("says not found for a number that is not in the data", () => {
    expect(checkTexasLicense(applicant, undefined, "2026-11-23")).toMatchObject({ check: "TX not found", qualifiesForAutoApproval: false });
  });

  it("sends Oklahoma applicants to OREC with their number", () => {
    expect(oklahomaVerdict("187654")).toEqual({ check: "check OREC", note: "Search license 187654 at https://orec.us/" });
  });

  it("names a lapse only when the license is no longer active", () => {
    expect(lapseVerdict(license, "2026-11-23")).toBeNull();
    expect(lapseVerdict({ ...license, status: "Suspended" }, "2026-11-23")).toBe("TX lapsed: suspended");
    expect(lapseVerdict(license, "2027-07-01")).toBe("TX lapsed: expired");
    expect(lapseVerdict(undefined, "2026-11-23")).toBe("TX lapsed: no longer in TREC's data");
  });
});
