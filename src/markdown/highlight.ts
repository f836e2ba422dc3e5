// Build-time highlighting of fenced code with Prism (chosen on measured speed, see docs/content/markdown.md): the code comes
// out as <span class="token keyword">… inside <pre class="language-x"><code class="language-x">, so any
// Prism theme stylesheet the site includes colours it and no script ships. Languages load on first use;
// a language Prism does not know renders as plain code, as without highlighting.
import type { MarkedExtension } from 'marked';
import prism from 'prismjs';
import loadLanguages from 'prismjs/components/index.js';
import components from 'prismjs/components.js';

/**
 * Prism's HTML with every `>` outside a tag as `&gt;`. A `<` with no `>` after it is kept as it is; the
 * text after the last `>` is left out of the expression, which would read to the end from each such `<`.
 */
export function gtEscaped(html: string): string {
  const end = html.lastIndexOf('>') + 1;
  return html.slice(0, end).replace(/(<[^>]*>)|>/g, (_m, tag?: string) => tag ?? '&gt;') + html.slice(end);
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Language ids and aliases ("js", "sh", "html") → Prism's language id. */
function languageIds(): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [id, def] of Object.entries(components.languages)) {
    if (id === 'meta') continue;
    ids.set(id, id);
    for (const a of [def.alias ?? []].flat()) ids.set(a, id);
  }
  return ids;
}

export function highlightExtension(): MarkedExtension {
  const aliases = languageIds();
  loadLanguages.silent = true;
  const load = loadLanguages;
  const grammar = (lang: string) => {
    const id = aliases.get(lang);
    if (!id) return undefined;
    if (!prism.languages[id]) load([id]);
    return prism.languages[id];
  };
  return {
    renderer: {
      code(token) {
        const lang = (token.lang ?? '').match(/^\S*/)?.[0].toLowerCase() ?? '';
        const g = lang ? grammar(lang) : undefined;
        if (!g || token.escaped) return false;
        const cls = `language-${escape(lang)}`;
        const code = token.text.replace(/\n$/, '');
        // Prism encodes "<" and "&" in text but not ">": every "<" left starts one of its tags.
        const html = gtEscaped(prism.highlight(code, g, lang));
        return `<pre class="${cls}"><code class="${cls}">${html}\n</code></pre>\n`;
      },
    },
  };
}
