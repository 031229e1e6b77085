/**
 * The mirror tabs staff read in the spreadsheet (docs/decisions/0081): what each holds, how
 * it is laid out, and its bounds. The app rewrites them whole; staff type only in the Lookup
 * tab's cell B2. Pure: the rows come from app/server/mirrors.
 */

/** A block of rows under a title: what the Lookup tab shows of one kind of thing. */
export type MirrorSection = {
  /** What the section shows, in the answer's line: "member", "messages", "referral"... */
  readonly kind: string;
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** How many rows there are in all, when more than `rows` (the rest were cut). */
  readonly total?: number;
};

type MirrorShape = { readonly tab: string; readonly dataRows: number; readonly columns: number };

/** Each mirror's tab and bound: at most `dataRows` rows under its three top rows, `columns` wide. */
export const MIRRORS = {
  lookup: { tab: "Lookup", dataRows: 300, columns: 7 },
  recentReports: { tab: "Recent reports", dataRows: 500, columns: 10 },
  dailyCounts: { tab: "Daily counts", dataRows: 90, columns: 8 },
  invitationsToJoin: { tab: "Invitations to join", dataRows: 500, columns: 7 },
} as const satisfies Record<string, MirrorShape>;

export type MirrorName = keyof typeof MIRRORS;

/** Rows above a mirror's data: the notice, then the Lookup cell or the mirror's status, then its headers (or the answer's line). */
export const MIRROR_TOP_ROWS = 3;

/** The cell staff type a look-up in: B2 (0-based row 1, column 1). */
export const LOOKUP_CELL = { row: 1, column: 1, a1: "B2" } as const;
/** The cells read at every refresh: what staff typed (B2) and what the tab answers now (B3). */
export const LOOKUP_WATCHED_RANGE = "B2:B3";

/** How far back the Recent reports tab looks. */
export const RECENT_REPORT_DAYS = 30;

/** How often the mirrors are rewritten, beyond the Lookup tab's answer to a new look-up. */
export const MIRROR_PERIOD_MINUTES = 5;

/** A mirror's size in cells: its grid is kept at exactly this, whatever staff insert. */
export function mirrorCells(name: MirrorName): number {
  const shape: MirrorShape = MIRRORS[name];
  return (MIRROR_TOP_ROWS + shape.dataRows) * shape.columns;
}

/** Row 1 of every mirror: that the tab is rewritten, and that edits there are lost. */
function mirrorNotice(name: MirrorName, rewrittenAt: Date): string {
  const input = name === "lookup" ? ", except the look-up cell B2" : "";
  return `Rewritten by the app every ${MIRROR_PERIOD_MINUTES} minutes (last ${rewrittenAt.toISOString().slice(0, 16).replace("T", " ")} UTC): edits in this tab are lost${input}. Read only; the rows themselves live in their own tabs or in the database.`;
}

/** The status line of a bounded list: how many rows there are, and what was cut. */
export function cutNote(shown: number, total: number, what: string): string {
  if (total === 0) return `No ${what}.`;
  if (shown >= total) return `${total} ${what}.`;
  return `Showing ${shown} of ${total} ${what}, newest first: the ${total - shown} oldest are cut (the tab holds ${shown} rows at most).`;
}

/** A Lookup tab's sections laid out under one another, each with its title, headers and rows, cut to `dataRows` rows in all. */
function sectionRows(sections: readonly MirrorSection[], dataRows: number): { rows: string[][]; cut: boolean } {
  const rows: string[][] = [];
  let cut = false;
  for (const section of sections) {
    if (rows.length + 3 > dataRows) {
      cut = true;
      break;
    }
    const room = dataRows - rows.length - 3;
    const shown = section.rows.slice(0, room);
    const total = Math.max(section.total ?? 0, section.rows.length);
    if (shown.length < section.rows.length) cut = true;
    const title = shown.length < total ? `${section.title}: the newest ${shown.length} of ${total}, the rest cut` : section.title;
    rows.push([title], [...section.headers], ...shown.map((row) => [...row]), []);
  }
  return { rows, cut };
}

/** The kinds of sections found, in order, each once, with how many when more than one: "member, messages, 3 referrals". */
function foundKinds(sections: readonly MirrorSection[]): string {
  const counts = new Map<string, number>();
  for (const { kind } of sections) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => (count > 1 ? `${count} ${kind}s` : kind)).join(", ");
}

/** The Lookup tab's top rows and sections: the notice, the cell staff type in, the answer's line, then what was found. */
export function lookupCells(query: string, sections: readonly MirrorSection[], rewrittenAt: Date): string[][] {
  const { dataRows } = MIRRORS.lookup;
  const { rows, cut } = sectionRows(sections, dataRows);
  const answer =
    query === ""
      ? "Type an e-mail address, or an agent, request, referral, invitation, message or conversation id in B2: the answer appears here within a refresh."
      : sections.length === 0
        ? "Nothing found: no member, request, referral, invitation, message or conversation has that address or id."
        : `Found ${foundKinds(sections)} below${cut ? `; cut at ${dataRows} rows` : ""}.`;
  return [[mirrorNotice("lookup", rewrittenAt)], ["Look up:", "", "← type here (B2)"], ["Answer for:", query, answer], ...rows];
}

/** A list mirror's cells: the notice, its status line, its headers, its rows (already bounded). */
export function listCells(
  name: Exclude<MirrorName, "lookup">,
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  status: string,
  rewrittenAt: Date,
): string[][] {
  return [[mirrorNotice(name, rewrittenAt)], [status], [...headers], ...rows.map((row) => [...row])];
}

/** The days from `days - 1` days before `now` to `now` (UTC, `YYYY-MM-DD`), newest first. */
export function lastDays(now: Date, days: number): string[] {
  return Array.from({ length: days }, (_, i) => new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10));
}
