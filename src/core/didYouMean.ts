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

/** Edits (insert, delete, change, swap two neighbours) between two words: the distance of a typo. Three
 *  rows of the table kept, not all of it: the cost of Levenshtein's (a link check compares thousands of paths). */
export function typoDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      cur[j] = d;
    }
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[b.length]!;
}

/** The known name nearest `key` (case aside), when near enough to be a typo of it: by typo distance (a swap of
 *  two neighbours is one edit, "cps" → "csp"), a tie going to the name of the same letters. */
export function closest(key: string, valid: readonly string[]): string | undefined {
  if (key.length > LONGEST) return undefined;
  const k = key.toLowerCase();
  let best: string[] = [], min = Infinity;
  for (const v of valid) {
    if (v.length > LONGEST) continue;
    const d = typoDistance(k, v.toLowerCase());
    if (d < min) { min = d; best = [v]; } else if (d === min) best.push(v);
  }
  if (!best.length || min > Math.max(2, Math.floor(key.length / 3))) return undefined;
  const letters = (s: string) => [...s.toLowerCase()].sort().join('');
  const mine = letters(k);
  return best.length > 1 ? (best.find((v) => letters(v) === mine) ?? best[0]) : best[0];
}
