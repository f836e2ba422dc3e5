// Differential checks of a scan that stands in for one of marked's rules (src/markdown/text.ts, blocks.ts):
// the same documents through a Marked setup without it and one with it.
import type { Marked } from 'marked';

/** The first `most` documents (JSON-quoted) whose tokens or HTML differ between the two setups. */
export function differing(plain: Marked, fast: Marked, docs: Iterable<string>, most = 3): string[] {
  const wrong: string[] = [];
  for (const doc of docs) {
    const same = JSON.stringify(fast.lexer(doc)) === JSON.stringify(plain.lexer(doc))
      && fast.parse(doc, { async: false }) === plain.parse(doc, { async: false });
    if (!same && wrong.push(JSON.stringify(doc)) >= most) break;
  }
  return wrong;
}
