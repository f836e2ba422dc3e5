// The content policy, applied to the HTML a Markdown body renders to, whatever wrote it: marked, the engine's
// features (footnotes, heading ids, highlighting, smart quotes) or a plugin's marked extension. The token
// walk in markdown.ts refuses raw HTML and unsafe links the author typed; this check holds for the output,
// so an extension that copies the body's text into markup unescaped cannot publish an element, an attribute
// or a javascript: URL the policy does not allow. One allowlist serves this check and the sanitizer
// (`html: 'sanitize'`, src/markdown/sanitize.ts).
//
// The check reads tags the way a browser's tokenizer does (WHATWG HTML, "data state" and the tag states), in
// one pass. It can stay in the data state throughout because every element that switches the tokenizer into
// another state (script, style, textarea, title, iframe, noscript, xmp, plaintext, svg, math …) is outside
// the allowlist: the check stops at the first thing not allowed, and the caller refuses or sanitizes the body.
import { unsafeScheme } from './urlScheme.ts';

/** Elements the policy allows in a Markdown body's HTML. */
export const ALLOWED_TAGS: readonly string[] = [
  'address', 'article', 'aside', 'footer', 'header', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hgroup', 'main', 'nav', 'section',
  'blockquote', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'hr', 'li', 'menu', 'ol', 'p', 'pre', 'ul',
  'a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 'rb', 'rp', 'rt', 'rtc',
  'ruby', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
  'caption', 'col', 'colgroup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr',
  'img', 'picture', 'source', 'details', 'summary', 'ins', 'del', 'input',
];

/** Attributes per element ('*': on any); a name ending in '*' allows every name with that prefix. */
export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  '*': ['id', 'class', 'title', 'lang', 'dir', 'aria-*', 'data-footnote*', 'data-footnotes'],
  a: ['href', 'name', 'rel', 'tabindex'],
  img: ['src', 'srcset', 'alt', 'width', 'height', 'loading', 'decoding'],
  source: ['srcset', 'type', 'media', 'width', 'height'],
  td: ['align', 'colspan', 'rowspan'],
  th: ['align', 'colspan', 'rowspan', 'scope'],
  ol: ['start', 'reversed'],
  details: ['open'],
  // Task lists' checkboxes, which marked renders disabled; an input of any other type is refused.
  input: ['type', 'checked', 'disabled'],
};

/** Attributes whose value a browser loads or follows as a URL. */
export const URL_ATTRIBUTES: readonly string[] = ['href', 'src', 'cite', 'srcset'];

const tags = new Set(ALLOWED_TAGS);
const exact = new Map<string, Set<string>>();
const prefixes = new Map<string, string[]>();
for (const [tag, names] of Object.entries(ALLOWED_ATTRIBUTES)) {
  exact.set(tag, new Set(names.filter((n) => !n.endsWith('*'))));
  prefixes.set(tag, names.filter((n) => n.endsWith('*')).map((n) => n.slice(0, -1)));
}
const urlAttributes = new Set(URL_ATTRIBUTES);

function attributeAllowed(tag: string, name: string): boolean {
  for (const key of [tag, '*']) {
    if (exact.get(key)?.has(name)) return true;
    for (const p of prefixes.get(key) ?? []) if (name.startsWith(p)) return true;
  }
  return false;
}

/** What the check found first that the policy does not allow. */
export interface PolicyViolation {
  /** The element (lower case), or the markup that is not an element. */
  tag: string;
  /** The attribute, when the element is allowed but this attribute (or its value) is not. */
  attribute?: string;
  /** Shown to the author: "<img onerror>", "<a href=javascript:…>", "<script>". */
  text: string;
}

/** ASCII lower case, as the tokenizer folds names (toLowerCase would also fold "\u212A", the Kelvin sign, to "k"). */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 32));
const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** The tokenizer's whitespace: tab, LF, FF, CR (a CR reaches it as LF) and space. */
const isSpace = (c: number) => c === 9 || c === 10 || c === 12 || c === 13 || c === 32;

/** The srcset's URLs: each candidate's first run of non-space characters. */
const srcsetUrls = (v: string) => v.split(',').map((c) => c.trim().split(/[\t\n\f\r ]/, 1)[0]).filter(Boolean);

/**
 * The first element, attribute or URL in `html` that the policy does not allow, or null when all of it is
 * allowed. Linear in the length of `html`.
 */
export function htmlPolicyViolation(html: string): PolicyViolation | null {
  const n = html.length;
  let i = html.indexOf('<');
  while (i >= 0 && i < n) {
    const c = html.charCodeAt(i + 1);
    if (c === 33 /* ! */) {
      // A comment ends at "-->" or "--!>" (or at once: "<!-->", "<!--->"); other markup declarations are
      // bogus comments (or a doctype, ignored in a body) that end at the next ">".
      let end: number;
      if (html.startsWith('<!--', i)) {
        if (html.startsWith('>', i + 4)) end = i + 5;
        else if (html.startsWith('->', i + 4)) end = i + 6;
        else {
          const a = html.indexOf('-->', i + 4), b = html.indexOf('--!>', i + 4);
          if (a < 0 && b < 0) return { tag: '!--', text: 'an unterminated comment' };
          end = a >= 0 && (b < 0 || a < b) ? a + 3 : b + 4;
        }
      } else {
        const gt = html.indexOf('>', i + 2);
        if (gt < 0) return { tag: '!', text: 'an unterminated markup declaration' };
        end = gt + 1;
      }
      i = html.indexOf('<', end);
      continue;
    }
    const endTag = c === 47; /* / */
    const start = endTag ? i + 2 : i + 1;
    const c0 = html.charCodeAt(start);
    if (!isAlpha(c0)) {
      // "</>" is dropped; "</" or "<?" before anything else opens a bogus comment to the next ">"; any
      // other "<" is text.
      if (endTag || c === 63 /* ? */) {
        const gt = html.indexOf('>', start);
        if (gt < 0) return { tag: endTag ? '/' : '?', text: 'an unterminated bogus comment' };
        i = html.indexOf('<', gt + 1);
      } else i = html.indexOf('<', i + 1);
      continue;
    }
    // Tag name: up to whitespace, "/" or ">".
    let j = start;
    while (j < n) { const d = html.charCodeAt(j); if (isSpace(d) || d === 47 || d === 62) break; j++; }
    const tag = asciiLower(html.slice(start, j));
    if (!tags.has(tag)) return { tag, text: `<${endTag ? '/' : ''}${tag}>` };
    // Attributes, until the ">" that ends the tag (end tags' attributes are read the same way and ignored).
    let checkbox = false;
    for (;;) {
      while (j < n && (isSpace(html.charCodeAt(j)) || html.charCodeAt(j) === 47)) j++;
      if (j >= n) return { tag, text: `an unterminated <${tag}> tag` };
      if (html.charCodeAt(j) === 62 /* > */) { j++; break; }
      // Attribute name: the first character may be "="; then up to whitespace, "/", ">" or "=".
      const nameAt = j++;
      while (j < n) { const d = html.charCodeAt(j); if (isSpace(d) || d === 47 || d === 62 || d === 61) break; j++; }
      const name = asciiLower(html.slice(nameAt, j));
      while (j < n && isSpace(html.charCodeAt(j))) j++;
      let value = '';
      if (html.charCodeAt(j) === 61 /* = */) {
        j++;
        while (j < n && isSpace(html.charCodeAt(j))) j++;
        const q = html.charCodeAt(j);
        if (q === 34 || q === 39) {
          const close = html.indexOf(q === 34 ? '"' : "'", j + 1);
          if (close < 0) return { tag, text: `an unterminated <${tag}> tag` };
          value = html.slice(j + 1, close);
          j = close + 1;
        } else if (q !== 62) {
          const from = j;
          while (j < n) { const d = html.charCodeAt(j); if (isSpace(d) || d === 62) break; j++; }
          value = html.slice(from, j);
        }
      }
      if (endTag) continue;
      if (!attributeAllowed(tag, name)) return { tag, attribute: name, text: `<${tag} ${name}>` };
      if (urlAttributes.has(name)) {
        for (const url of name === 'srcset' ? srcsetUrls(value) : [value]) {
          const scheme = unsafeScheme(url);
          if (scheme) return { tag, attribute: name, text: `<${tag} ${name}="${scheme}:…">` };
        }
      }
      if (tag === 'input' && name === 'type') {
        if (asciiLower(value) !== 'checkbox') return { tag, attribute: name, text: `<input type="${value.slice(0, 20)}">` };
        checkbox = true;
      }
    }
    // An input without a type is a text field.
    if (tag === 'input' && !endTag && !checkbox) return { tag, text: '<input> that is not a checkbox' };
    i = html.indexOf('<', j);
  }
  return null;
}
