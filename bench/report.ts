/** The benches' figures as text: numbers, medians, budgets met or missed, and Markdown-style tables. */

export const mark = (met: boolean) => (met ? "met" : "MISSED");

export const f1 = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "n/a");
export const f2 = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "n/a");

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}
