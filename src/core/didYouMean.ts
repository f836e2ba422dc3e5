// didYouMean: the closest known name to a misspelt one (a config key, a content field, a command), for the
// "Did you mean …?" of an unknown-key message.

/** The longest name compared: the distance costs the product of the two lengths. */
const LONGEST = 64;

/** Levenshtein distance. */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** Edits (insert, delete, change, swap two neighbours) between two words: the distance of a typo. */
export function typoDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name nearest `key` (case aside), when near enough to be a typo of it. Ranked by typo distance
 *  (a swap of two neighbours is one edit, "cps" → "csp"), a tie going to the name of the same letters; the
 *  cheaper Levenshtein distance picks the few names worth that (a swap costs it two). */
export function closest(key: string, valid: readonly string[]): string | undefined {
  if (key.length > LONGEST) return undefined;
  const k = key.toLowerCase();
  const scored: [string, number][] = [];
  let min = Infinity;
  for (const v of valid) {
    if (v.length > LONGEST) continue;
    const d = distance(k, v.toLowerCase());
    scored.push([v, d]);
    if (d < min) min = d;
  }
  const letters = (s: string) => [...s].sort().join('');
  const mine = letters(k);
  const best = scored.filter(([, d]) => d <= min + 1)
    .map(([v]) => [v, typoDistance(k, v.toLowerCase()), letters(v.toLowerCase()) === mine ? 0 : 1] as const)
    .sort((x, y) => x[1] - y[1] || x[2] - y[2])[0];
  return best && best[1] <= Math.max(2, Math.floor(key.length / 3)) ? best[0] : undefined;
}
