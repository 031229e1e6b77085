/**
 * How many one-letter slips (a letter missed, added, changed, or two swapped) turn `a` into
 * `b`, counted up to `most`: any answer above `most` means "too far", which lets a search
 * over the whole place list stop early on most names.
 */
export function spellingDistance(a: string, b: string, most: number): number {
  if (Math.abs(a.length - b.length) > most) return most + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      let cost = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, beforePrevious[j - 2]! + 1);
      current.push(cost);
      rowBest = Math.min(rowBest, cost);
    }
    if (rowBest > most) return most + 1;
    beforePrevious = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, most + 1);
}
