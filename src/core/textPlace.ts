// Where an offset of a text is: its line and column (1-based) and its line's text. The line starts are found once,
// on first use, and each place then by halves: a text with many places to name (a body's directives, a file's
// image fields) is read once, not once a place.
export type TextPlace = { line: number; column: number; lineText: string };

export function textPlaces(text: string): (offset: number) => TextPlace {
  let starts: number[] | null = null;
  return (offset) => {
    if (!starts) { starts = [0]; for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) starts.push(k + 1); }
    let lo = 0, hi = starts.length - 1; // (the last start at or before the offset)
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid]! <= offset) lo = mid; else hi = mid - 1; }
    const start = starts[lo]!, end = text.indexOf('\n', start);
    return { line: lo + 1, column: offset - start + 1, lineText: text.slice(start, end < 0 ? undefined : end).replace(/\r$/, '') };
  };
}
