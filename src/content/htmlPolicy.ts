// The content policy, applied to the HTML a Markdown body renders to, whatever wrote it: marked, the engine's
// features (footnotes, heading ids, highlighting, smart quotes) or a plugin's marked extension. The token
// walk in markdown/policy.ts refuses raw HTML and unsafe links the author typed; this check holds for the output,
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
  img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding', 'fetchpriority'],
  source: ['srcset', 'sizes', 'type', 'media', 'width', 'height'],
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
/** Whether an element (lower case) may be in a body's HTML: the allowlist the check and the sanitizer use. */
export const isAllowedTag = (tag: string): boolean => tags.has(tag);
/** Per element: the names it allows exactly (its own and the global ones), and the allowed prefixes. */
const exact = new Map<string, Set<string>>();
const prefixes = ALLOWED_ATTRIBUTES['*'].filter((n) => n.endsWith('*')).map((n) => n.slice(0, -1));
const globalNames = ALLOWED_ATTRIBUTES['*'].filter((n) => !n.endsWith('*'));
for (const tag of ALLOWED_TAGS) exact.set(tag, new Set([...globalNames, ...(ALLOWED_ATTRIBUTES[tag] ?? [])]));
if (Object.entries(ALLOWED_ATTRIBUTES).some(([tag, names]) => tag !== '*' && names.some((n) => n.endsWith('*')))) {
  throw new Error('sitegen bug: attribute prefixes are allowed only for every element');
}
const urlAttributes = new Set(URL_ATTRIBUTES);

function attributeAllowed(tag: string, name: string): boolean {
  if (exact.get(tag)!.has(name)) return true;
  for (const p of prefixes) if (name.startsWith(p)) return true;
  return false;
}

/** Schemes that a target starting with them (as typed: lower case, no references) certainly has. */
const PLAIN_SCHEMES = ['https://', 'http://', 'mailto:'];
/** The unsafe scheme of a URL attribute's value (as typed, references undecoded), or null. */
function unsafeUrl(value: string): string | null {
  // No ":" (typed or as a reference) means no scheme; a plain https:// or http:// or mailto: is what it says.
  if (!value.includes(':') && !value.includes('&')) return null;
  for (const p of PLAIN_SCHEMES) if (value.startsWith(p)) return null;
  return unsafeScheme(value);
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

/** ASCII lower case, as the tokenizer folds names (toLowerCase would also fold "\u212A", the Kelvin sign, to
 *  "k"); names with other characters never get here. */
const asciiLower = (s: string) => s.toLowerCase();
/** ASCII lower case of any text. */
const asciiFold = (s: string) => s.replace(/[A-Z]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 32));
const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** The tokenizer's whitespace: tab, LF, FF, CR (a CR reaches it as LF) and space. */
const isSpace = (c: number) => c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
/** What ends an attribute's name after its first character: whitespace, "/", ">", "=". */
const endsName = (c: number) => isSpace(c) || c === 47 || c === 62 || c === 61;

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
    // Every allowed name is ASCII: a name with any other character is refused as it is, never folded.
    let j = start, upper = false, wide = false;
    while (j < n) {
      const d = html.charCodeAt(j);
      if (isSpace(d) || d === 47 || d === 62) break;
      if (d >= 65 && d <= 90) upper = true; else if (d > 127) wide = true;
      j++;
    }
    const typed = html.slice(start, j);
    const tag = upper && !wide ? asciiLower(typed) : typed;
    if (wide || !tags.has(tag)) return { tag, text: `<${endTag ? '/' : ''}${tag}>` };
    // Attributes, until the ">" that ends the tag (end tags' attributes are read the same way and ignored).
    let checkbox = false;
    for (;;) {
      while (j < n && (isSpace(html.charCodeAt(j)) || html.charCodeAt(j) === 47)) j++;
      if (j >= n) return { tag, text: `an unterminated <${tag}> tag` };
      if (html.charCodeAt(j) === 62 /* > */) { j++; break; }
      // Attribute name: the first character may be "="; then up to whitespace, "/", ">" or "=".
      const nameAt = j;
      upper = false; wide = false;
      do {
        const d = html.charCodeAt(j++);
        if (d >= 65 && d <= 90) upper = true; else if (d > 127) wide = true;
      } while (j < n && !endsName(html.charCodeAt(j)));
      const typedName = html.slice(nameAt, j);
      const name = upper && !wide ? asciiLower(typedName) : typedName;
      while (j < n && isSpace(html.charCodeAt(j))) j++;
      let valueAt = j, valueEnd = j;
      if (html.charCodeAt(j) === 61 /* = */) {
        j++;
        while (j < n && isSpace(html.charCodeAt(j))) j++;
        const q = html.charCodeAt(j);
        if (q === 34 || q === 39) {
          const close = html.indexOf(q === 34 ? '"' : "'", j + 1);
          if (close < 0) return { tag, text: `an unterminated <${tag}> tag` };
          valueAt = j + 1; valueEnd = close;
          j = close + 1;
        } else if (q !== 62) {
          valueAt = j;
          while (j < n) { const d = html.charCodeAt(j); if (isSpace(d) || d === 62) break; j++; }
          valueEnd = j;
        }
      }
      if (endTag) continue;
      if (wide || !attributeAllowed(tag, name)) return { tag, attribute: name, text: `<${tag} ${name}>` };
      if (urlAttributes.has(name)) {
        const value = html.slice(valueAt, valueEnd);
        for (const url of name === 'srcset' ? srcsetUrls(value) : [value]) {
          const scheme = unsafeUrl(url);
          if (scheme) return { tag, attribute: name, text: `<${tag} ${name}="${scheme}:…">` };
        }
      }
      if (tag === 'input' && name === 'type') {
        const value = html.slice(valueAt, valueEnd);
        if (asciiFold(value) !== 'checkbox') return { tag, attribute: name, text: `<input type="${value.slice(0, 20)}">` };
        checkbox = true;
      }
    }
    // An input without a type is a text field.
    if (tag === 'input' && !endTag && !checkbox) return { tag, text: '<input> that is not a checkbox' };
    i = html.indexOf('<', j);
  }
  return null;
}
