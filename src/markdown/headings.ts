// Heading ids: GitHub's slugs (github-slugger's `slug`: lower case, punctuation dropped, spaces to "-"; a
// repeated slug suffixed -1, -2 … as GitHub does) assigned per document in source order, so ids are stable across builds and
// pages. The heading renders with its id and a "#" link to itself after the text; the link is out of the
// tab order and hidden from assistive technology (the heading already says the same).
// The named, stateless `slug`: the package is ESM-only and its default export does not survive the
// CommonJS interop of a build's bundled site module.
import { slug } from 'github-slugger';
import { type Marked, type MarkedExtension, type Token, type Tokens } from 'marked';
import { attr } from '../core/htmlAttr.ts';

type HeadingWithId = Tokens.Heading & { sitegenId?: string };

/** Ids that other features write (the footnotes' heading), kept free of heading slugs. */
export function assignHeadingIds(md: Marked, tokens: Token[], reserved: string[] = []): void {
  const taken = new Map<string, number>();
  const unique = (value: string): string => {
    const base = slug(value);
    let id = base;
    while (taken.has(id)) { const n = (taken.get(base) ?? 0) + 1; taken.set(base, n); id = `${base}-${n}`; }
    taken.set(id, 0);
    return id;
  };
  for (const id of reserved) unique(id);
  // The parser's own text renderer: its emphasis, link and image methods read their parser (one made apart has none).
  const parser = new md.Parser(md.defaults);
  const text = parser.textRenderer;
  md.walkTokens(tokens, (t) => {
    if (t.type !== 'heading') return;
    const h = t as HeadingWithId;
    const plain = parser.parseInline(h.tokens, text).replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '');
    // (trimmed: a comment left out at its end, `## Intro <!-- note -->`, leaves a space)
    h.sitegenId = unique(plain.trim()) || unique('section');
  });
}

export const headingIdExtension: MarkedExtension = {
  renderer: {
    heading(token) {
      const id = (token as HeadingWithId).sitegenId;
      if (!id) return false;
      const a = attr(id);
      return `<h${token.depth} id="${a}">${this.parser.parseInline(token.tokens)} <a class="heading-anchor" href="#${a}" aria-hidden="true" tabindex="-1">#</a></h${token.depth}>\n`;
    },
  },
};
