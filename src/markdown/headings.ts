// Heading ids: GitHub's slugs (github-slugger: lower case, punctuation dropped, spaces to "-", a repeated
// slug suffixed -1, -2 …) assigned per document in source order, so ids are stable across builds and
// pages. The heading renders with its id and a "#" link to itself after the text; the link is out of the
// tab order and hidden from assistive technology (the heading already says the same).
import GithubSlugger from 'github-slugger';
import { TextRenderer, type Marked, type MarkedExtension, type Token, type Tokens } from 'marked';

type HeadingWithId = Tokens.Heading & { sitegenId?: string };

/** Ids that other features write (the footnotes' heading), kept free of heading slugs. */
export function assignHeadingIds(md: Marked, tokens: Token[], reserved: string[] = []): void {
  const slugger = new GithubSlugger();
  for (const id of reserved) slugger.slug(id);
  const text = new TextRenderer();
  const parser = new md.Parser(md.defaults);
  md.walkTokens(tokens, (t) => {
    if (t.type !== 'heading') return;
    const h = t as HeadingWithId;
    const plain = parser.parseInline(h.tokens, text).replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '');
    h.sitegenId = slugger.slug(plain) || slugger.slug('section');
  });
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

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
