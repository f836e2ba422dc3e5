// didYouMean: the closest known name to a misspelt one (a config key, a content field), for the
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

/** The known name nearest `key` (case aside), when near enough to be a typo of it. */
export function closest(key: string, valid: readonly string[]): string | undefined {
  if (key.length > LONGEST) return undefined;
  const best = valid.filter((k) => k.length <= LONGEST)
    .map((k) => [k, distance(key.toLowerCase(), k.toLowerCase())] as const).sort((x, y) => x[1] - y[1])[0];
  return best && best[1] <= Math.max(2, Math.floor(key.length / 3)) ? best[0] : undefined;
}
