// GFM table alignment as a class (`<td class="align-right">`) instead of marked's `align` attribute, which
// HTML has deprecated (html-validate refuses it) and an inline style would be blocked by the strict CSP.
// Always on: it only changes tables with aligned columns. The site styles `.align-left/center/right`.
import type { MarkedExtension } from 'marked';

export const tableAlignClasses: MarkedExtension = {
  renderer: {
    tablecell(token) {
      if (!token.align) return false;
      const tag = token.header ? 'th' : 'td';
      return `<${tag} class="align-${token.align}">${this.parser.parseInline(token.tokens)}</${tag}>\n`;
    },
  },
};
