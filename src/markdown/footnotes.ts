// Footnote labels as text. marked-footnote writes a note's label into its back-link's `aria-label` as typed,
// so `[^x"><img …>]` would close the attribute and add markup. The label of every note and reference is
// escaped for an attribute before the notes render; ids (encodeURIComponent of the label) stay matched
// because a reference and its note are escaped alike. `$` is escaped too: the library puts the label into
// its back-link text with String.replace, where `$&` or `$'` would be read as a pattern.
import type { MarkedExtension, Token } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', $: '&#36;' };

type Labelled = Token & { label?: unknown };

export const footnoteLabels: MarkedExtension = {
  walkTokens(token) {
    if (token.type !== 'footnote' && token.type !== 'footnoteRef') return;
    const t = token as Labelled;
    if (typeof t.label === 'string') t.label = t.label.replace(/[&<>"'$]/g, (c) => ESCAPES[c]);
  },
};
