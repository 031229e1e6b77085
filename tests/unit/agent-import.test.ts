import { describe, expect, it } from "vitest";
import { ImportFileError, NO_PASSWORD_NOTE, planAgentImport } from "../../scripts/lib/agent-import";

const HEADER = "fullName,email,city,state,brokerage,specialties,password,photo,bio";
const none = new Set<string>();

function plan(lines: string[], existing: ReadonlySet<string> = none, eol = "\n") {
  return planAgentImport(lines.join(eol), existing);
}

describe("planAgentImport", () => {
  it("reads a row into an agent, normalising e-mail, state and specialties", () => {
    const result = plan([
      HEADER,
      ' Dana Reyes ,Dana.Reyes@Example.COM, Tyler ,tx,Piney Woods Realty,"residential, LAND,Horse Farms",s3cret-pass,https://img.example/dana.jpg,Hello',
    ]);
    expect(result.skipped).toEqual([]);
    expect(result.agents).toEqual([
      {
        line: 2,
        fullName: "Dana Reyes",
        email: "dana.reyes@example.com",
        city: "Tyler",
        state: "TX",
        brokerage: "Piney Woods Realty",
        specialties: ["Residential", "Land", "Horse Farms"],
        password: "s3cret-pass",
        photoUrl: "https://img.example/dana.jpg",
        bio: "Hello",
        notes: [],
      },
    ]);
  });

  it("keeps commas, doubled quotes and line breaks inside quoted fields", () => {
    const result = plan([
      HEADER,
      '"Reyes, Dana",dana@example.com,Tyler,TX,"The ""Best"" Realty, LLC",Land,"pa,ss""word",,"Line one',
      'line two"',
    ]);
    const [agent] = result.agents;
    expect(agent?.fullName).toBe("Reyes, Dana");
    expect(agent?.brokerage).toBe('The "Best" Realty, LLC');
    expect(agent?.password).toBe('pa,ss"word');
    expect(agent?.bio).toBe("Line one\nline two");
  });

  it("reads a file with a byte order mark and CRLF line ends", () => {
    const result = planAgentImport(
      `\uFEFF${HEADER}\r\nDana Reyes,dana@example.com,Tyler,TX,,,pw123456,,\r\nLee Park,lee@example.com,Tulsa,OK,,,pw654321,,\r\n`,
      none,
    );
    expect(result.agents.map((agent) => [agent.line, agent.email])).toEqual([
      [2, "dana@example.com"],
      [3, "lee@example.com"],
    ]);
    expect(result.missingColumns).toEqual([]);
  });

  it("finds columns by header name whatever their order, case and spacing", () => {
    const result = plan([
      " BIO ,Password,Email,STATE,Full Name Old,fullname, City ",
      "Hi,pw123456,lee@example.com,ok,Ignored Name,Lee Park,Tulsa",
    ]);
    expect(result.agents[0]).toMatchObject({
      fullName: "Lee Park",
      email: "lee@example.com",
      state: "OK",
      city: "Tulsa",
      bio: "Hi",
      password: "pw123456",
    });
    expect(result.missingColumns).toEqual(["brokerage", "specialties", "photo"]);
    expect(result.ignoredColumns).toEqual(["Full Name Old"]);
  });

  it("skips rows already in the store and rows repeating an earlier e-mail, with their line numbers", () => {
    const result = plan(
      [
        HEADER,
        "Dana Reyes,dana@example.com,Tyler,TX,,,pw123456,,",
        "Lee Park,LEE@example.com,Tulsa,OK,,,pw123456,,",
        "Dana Again,Dana@Example.com,Tyler,TX,,,other-pass,,",
      ],
      new Set(["lee@example.com"]),
    );
    expect(result.agents.map((agent) => agent.email)).toEqual(["dana@example.com"]);
    expect(result.skipped).toEqual([
      { line: 3, reason: "lee@example.com is already in the store" },
      { line: 4, reason: "dana@example.com repeats line 2" },
    ]);
  });

  it("skips invalid rows with the reason and never quotes the password", () => {
    const result = plan([
      HEADER,
      ",nobody@example.com,Tyler,TX,,,secret-one,,",
      "No Mail,,Tyler,TX,,,secret-two,,",
      "Bad Mail,bad@,Tyler,TX,,,secret-three,,",
      "Texan,texan@example.com,Tyler,Texas,,,secret-four,,",
      "Kansan,kansan@example.com,Wichita,KS,,,secret-five,,",
      "Stateless,stateless@example.com,Tyler,,,,secret-six,,",
    ]);
    expect(result.agents).toEqual([]);
    expect(result.skipped).toEqual([
      { line: 2, reason: "no name" },
      { line: 3, reason: "no e-mail address" },
      { line: 4, reason: 'invalid e-mail address "bad@"' },
      { line: 5, reason: 'state "TEXAS" is not TX or OK' },
      { line: 6, reason: 'state "KS" is not TX or OK' },
      { line: 7, reason: "no state (TX or OK)" },
    ]);
    expect(JSON.stringify(result.skipped)).not.toContain("secret");
  });

  it("counts lines from the start of each row, across blank lines and multi-line cells in CRLF files", () => {
    const result = plan(
      [HEADER, "", 'Dana Reyes,dana@example.com,Tyler,TX,,,pw123456,,"one', "two", 'three"', " , , ", "Bad,bad,Tulsa,OK,,,,,"],
      none,
      "\r\n",
    );
    expect(result.agents.map((agent) => agent.line)).toEqual([3]);
    expect(result.skipped).toEqual([{ line: 7, reason: 'invalid e-mail address "bad"' }]);
  });

  it("skips a row with more cells than the header, which a comma outside quotes would shift", () => {
    const result = plan([
      HEADER,
      "Dana Reyes,dana@example.com,Tyler,TX,Reyes Realty, LLC,Land,pw123456,,",
      "Lee Park,lee@example.com,Tulsa,OK,,,pw123456",
    ]);
    // Read as is, Dana's row would have "Land" as her password.
    expect(result.skipped).toEqual([{ line: 2, reason: "10 cells where the header names 9 columns: a comma outside quotes?" }]);
    expect(result.agents.map((agent) => agent.email)).toEqual(["lee@example.com"]);
  });

  it("imports a row without a password with a note, and keeps only http(s) photos", () => {
    const result = plan([
      HEADER,
      'Dana Reyes,dana@example.com,Tyler,TX,,,   ,"data:image/png;base64,AAAA",',
      "Lee Park,lee@example.com,Tulsa,OK,,,pw123456,javascript:alert(1),",
      "Ann Cole,ann@example.com,Enid,OK,,,pw123456,http://img.example/ann.png,",
    ]);
    expect(result.agents.map((agent) => [agent.password, agent.photoUrl, agent.notes])).toEqual([
      ["", "", ["photo left out: it is not an http(s) address", NO_PASSWORD_NOTE]],
      ["pw123456", "", ["photo left out: it is not an http(s) address"]],
      ["pw123456", "http://img.example/ann.png", ["photo kept, but pages show only https photos: change it to an https address"]],
    ]);
  });

  it("keeps text that looks like a formula exactly as typed", () => {
    const result = plan([HEADER, '"=HYPERLINK(""x"")",dana@example.com,Tyler,TX,+1 555,0123,pw123456,,@bio']);
    expect(result.agents[0]).toMatchObject({ fullName: '=HYPERLINK("x")', brokerage: "+1 555", specialties: ["0123"], bio: "@bio" });
  });

  it("refuses a file without the required columns, an empty file, a repeated column and broken CSV", () => {
    expect(() => plan(["name,email,state", "Dana,dana@example.com,TX"])).toThrow(/no fullName column/);
    expect(() => plan(["", "  "])).toThrow(ImportFileError);
    expect(() => plan(["fullName,email,state,Email", "Dana,a@example.com,TX,b@example.com"])).toThrow(/email column twice/);
    expect(() => plan([HEADER, 'Dana,dana@example.com,Tyler,TX,,,"my"secret,,'])).toThrow(/not valid CSV near line 2/);
  });

  it("names the line where the broken row starts, even after CRLF line breaks inside quotes", () => {
    const lines = [HEADER, 'Dana,dana@example.com,Tyler,TX,,,pw123456,,"one', 'two"', 'Lee,lee@example.com,Tulsa,OK,,,"pw"x,,'];
    expect(() => plan(lines, none, "\r\n")).toThrow("The file is not valid CSV near line 4 (CSV_INVALID_CLOSING_QUOTE).");
  });

  it("names no cell text when the CSV is broken", () => {
    try {
      plan([HEADER, 'Dana,dana@example.com,Tyler,TX,,,"hunter2"x,,']);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toMatch(/hunter2|"x"/);
    }
  });
});
