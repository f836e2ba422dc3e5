// Code of another generator or of MDX in a Markdown body or a front matter value, found so that it is said, not
// published as text: a Hugo shortcode, a Liquid/Nunjucks tag, a template expression or comment (templateTags), an MDX import
// or export line (mdxLine). Content is data: none of it runs (markdown/policy.ts, content/parse.ts).

/** What follows "{{" in a template expression: a name, a dotted path or a quoted string, then a filter, a call
 *  or the close (`{{ site.title }}`, `{{ "now" | date }}`), or a Handlebars block (`{{#each}}`, `{{/if}}`,
 *  `{{> partial}}`). Not a set (`{{a, b}}`) or an object (`{{color: "red"}}`). Tried on a bounded slice. */
const EXPRESSION = /^-?\s*(?:[#/>]\s*[A-Za-z]|(?:[A-Za-z_$][\w$]*(?:\.[\w$]+)*|"[^"\n]*"|'[^'\n]*')\s*(?:[|(}]|-\s*}|$))/;

/** What each kind of template code is called in a message. */
export type TagKind = 'Hugo shortcode' | 'Liquid/Nunjucks tag' | 'template expression' | 'Nunjucks/Jinja comment';

/** A closing tag: Hugo's {{% /name %}} and {{< /name >}}, Liquid's {% endname %}, Handlebars' {{/name}}. */
const CLOSER = /^\{(?:\{[<%]\s*\/|%-?\s*end|\{\/)/;

/** At most this many tags of one text are said (a paragraph of fifty is the same fix fifty times). */
const MAX_TAGS = 20;

/**
 * The Hugo shortcodes (`{{< name … >}}`, `{{% name … %}}`), Liquid/Nunjucks tags (`{% name … %}`), template
 * expressions (`{{ site.title }}`, `{{ "now" | date }}`) and Nunjucks/Jinja comments (`{# a note #}`, which would
 * publish an author's note) in a text (a text token's source: code spans and blocks are other tokens), each
 * closed in the same text, in order. One pass: each '{' is looked at once, and a close is looked for at most once
 * per kind once it is found missing. A comment needs a space or "-" after "{#" (`{#id}` is a heading's id).
 */
export function templateTags(text: string): { tag: string; kind: TagKind }[] {
  const found: { tag: string; kind: TagKind }[] = [];
  const unclosed = new Set<string>();
  let brace = -1, lastClose: number | undefined;
  for (let i = text.indexOf('{'); i >= 0 && found.length < MAX_TAGS; i = text.indexOf('{', i + 1)) {
    let kind: TagKind, close: string;
    const next = text[i + 1], third = text[i + 2];
    if (next === '{' && (third === '<' || third === '%')) { kind = 'Hugo shortcode'; close = `${third === '<' ? '>' : '%'}}}`; }
    else if (next === '%' && /^-?\s*[A-Za-z]/.test(text.slice(i + 2, i + 6))) { kind = 'Liquid/Nunjucks tag'; close = '%}'; }
    else if (next === '#' && (third === '-' || third === ' ' || third === '\n' || third === '\t')) {
      kind = 'Nunjucks/Jinja comment'; close = '#}';
      // (one that goes on past its paragraph, `{# a note` … `#}` over a blank line: its first line, said all the same)
      if ((lastClose ??= text.lastIndexOf('#}')) < i + 2) { const eol = text.indexOf('\n', i); found.push({ tag: `${text.slice(i, eol < 0 ? undefined : eol).slice(0, 57)}…`, kind }); continue; }
    } else if (next === '#' && third !== undefined && third !== '}') {
      // A comment written close, `{#note#}`: its first "}" closes it ("{#id}", a heading's id, is no comment).
      if (brace < i + 2) brace = text.indexOf('}', i + 2); // (kept: each '}' is looked for once, whatever the number of "{#")
      if (brace < 0) { brace = text.length; continue; }
      if (text[brace - 1] !== '#') continue;
      kind = 'Nunjucks/Jinja comment'; close = '#}';
    }
    else if (next === '{' && !/[\w\\}=]/.test(text[i - 1] ?? '') && EXPRESSION.test(text.slice(i + 2, i + 82))) { kind = 'template expression'; close = '}}'; }
    else continue;
    if (unclosed.has(close)) continue;
    const end = text.indexOf(close, i + 2);
    if (end < 0) { unclosed.add(close); continue; }
    const tag = text.slice(i, end + close.length);
    // (a closing tag after one found already is the same construct's end: {{% /notice %}}, {% endif %}, {{/each}})
    if (!(found.length && CLOSER.test(tag))) found.push({ tag: tag.length > 60 ? `${tag.slice(0, 57)}…` : tag, kind });
    i = end + close.length - 1; // (past its close: a tag's own braces start no other)
  }
  return found;
}

/** The first of templateTags, or null. */
export function templateTag(text: string): { tag: string; kind: TagKind } | null {
  return text.includes('{') ? templateTags(text)[0] ?? null : null;
}

/** Whether a body may hold such a line (a plain search first: most bodies hold neither word). Linear: one
 *  run of a class before a fixed word at each line start. */
export const mayHoldMdx = (body: string): boolean => (body.includes('import ') || body.includes('export ')) && /^[ \t]*(?:import|export) /m.test(body);

export const MDX_HINT = 'sitegen runs no code in content: take the line out. A component is written as a directive (:::Callout{type="tip"} … :::) and registered in the config\'s components (see Components in Markdown); a value from front matter goes in the template.';

/** A paragraph that starts with an MDX import or export line (`import X from '…'`, `export const …`): that line,
 *  or null. Only its first line: MDX writes such a line as a block of its own, and a wrapped sentence may start a
 *  later line with either word. */
export function mdxLine(raw: string): string | null {
  const l = raw.split('\n', 1)[0]!.trim();
  return (l.startsWith('import ') && /\sfrom\s*['"][^'"\s]+['"];?$/.test(l)) || /^export\s+(?:const|let|default|function)\s/.test(l) ? l : null;
}
