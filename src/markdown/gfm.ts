// Fixes to marked's GFM output so every page stays valid and accessible; always on (they only touch aligned
// tables and task lists, which rendered as deprecated or unlabelled HTML before):
// - table alignment as a class (`<td class="align-right">`) instead of the `align` attribute, which HTML has
//   deprecated (html-validate refuses it); an inline style would be blocked by the strict CSP. The site
//   styles `.align-left/center/right`.
// - a task list's checkbox is named by its item's text (`aria-label`): an unlabelled form control is a
//   critical axe failure, and a <label> cannot wrap an item that holds paragraphs or a nested list.
import type { MarkedExtension, Token, Tokens } from 'marked';
import { attr } from '../core/htmlAttr.ts';

type Checkbox = Tokens.Checkbox & { sitegenLabel?: string };

const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '');

/** The words of inline tokens (any extension's too: a token with children is read through them). */
function plainText(tokens: Token[]): string {
  let out = '';
  for (const t of tokens) {
    if ('tokens' in t && Array.isArray(t.tokens) && t.tokens.length) out += plainText(t.tokens);
    else if (t.type !== 'image' && 'text' in t && typeof t.text === 'string') out += t.type === 'codespan' ? unescape(t.text) : t.text;
  }
  return out;
}

export const gfmFixes: MarkedExtension = {
  walkTokens(token) {
    if (token.type !== 'list_item' || !(token as Tokens.ListItem).task) return;
    const item = token as Tokens.ListItem;
    // The checkbox sits first in the item (tight) or first in its first paragraph (loose).
    const first = item.tokens[0];
    const inline: Token[] = first?.type === 'checkbox' ? ((item.tokens[1] as Tokens.Text | undefined)?.tokens ?? []) : ((first as Tokens.Paragraph | undefined)?.tokens ?? []);
    const box = (first?.type === 'checkbox' ? first : inline[0]) as Checkbox | undefined;
    if (box?.type !== 'checkbox') return;
    box.sitegenLabel = plainText(inline.filter((t) => t.type !== 'checkbox')).replace(/\s+/g, ' ').trim().slice(0, 200);
  },
  renderer: {
    tablecell(token) {
      if (!token.align) return false;
      const tag = token.header ? 'th' : 'td';
      return `<${tag} class="align-${token.align}">${this.parser.parseInline(token.tokens)}</${tag}>\n`;
    },
    checkbox(token) {
      const label = (token as Checkbox).sitegenLabel;
      if (!label) return false;
      return `<input ${token.checked ? 'checked="" ' : ''}disabled="" type="checkbox" aria-label="${attr(label)}"> `;
    },
  },
};
