// Components in Markdown, checked against the site's config: every directive a body's HTML carries
// (src/markdown/directives.ts) names a registered component, in the right form (block or inline) and
// place (its `parent`), with attributes its schema accepts. Runs where the config is known, after the
// content is loaded (content/crossFile.ts crossFileMessages: build, check and dev alike), so cached and
// worker-parsed bodies are checked the same way; each problem is located at the directive.
import type { Content, Entry, MarkdownComponent, Message, SiteConfig } from '../core/types.ts';
import { isImageIssue } from '../authoring/imageFile.ts';
import { fileLocation, message } from '../core/errors.ts';
import { closest } from '../core/didYouMean.ts';
import { plainError } from '../content/validate.ts';
import { hasDirectives, placedDirectives, type DirectiveData, type PlacedDirective } from './directiveElements.ts';
import { attributeAt, labelEnd } from './directiveSyntax.ts';
import { bodyMayHold } from '../content/diskBody.ts';
import { schemaKeys } from '../core/zodShape.ts';

const where = (d: DirectiveData) => fileLocation(d.f, d.l, d.c, d.t);
/** Where an attribute of the directive is written (in the braces after its name and label), else the directive. */
function attrWhere(d: DirectiveData, key: string) {
  const t = d.t;
  let i = d.c - 1;
  while (t[i] === ':') i++;
  i += d.n.length;
  if (t[i] === '[') { const e = labelEnd(t, i, true); i = e < 0 ? t.length : e; } // (past the label)
  const at = t[i] === '{' ? attributeAt(t, i, key) : -1;
  return at < 0 ? where(d) : fileLocation(d.f, d.l, at + 1, t);
}
const written = (d: DirectiveData) => (d.k === 'inline' ? `:${d.n}[…]` : d.k === 'leaf' ? `::${d.n}` : `:::${d.n}`);

/** What is wrong with one directive (none when it is right), given the component it is nested in. */
export function directiveProblems(components: Record<string, MarkdownComponent>, d: DirectiveData, parent: string | null): Message[] {
  const names = Object.keys(components);
  if (!Object.hasOwn(components, d.n)) {
    const guess = closest(d.n, names);
    return [message('ComponentError', `Unknown component "${d.n}" in ${written(d)}`, where(d), { hint: `${guess ? `Did you mean ${guess}? ` : ''}Components this site registers: ${names.join(', ')}.` })];
  }
  const c = components[d.n];
  const out: Message[] = [];
  if (c.inline && d.k !== 'inline') out.push(message('ComponentError', `${d.n} is an inline component: write it in running text as :${d.n}[label]{…}`, where(d)));
  if (!c.inline && d.k === 'inline') out.push(message('ComponentError', `${d.n} is a block component: write it on lines of its own, :::${d.n}{…} … :::`, where(d)));
  if (c.parent !== undefined && parent !== c.parent) {
    out.push(message('ComponentError', `${d.n} can only be nested directly in ${c.parent}, but it is ${parent ? `in ${parent}` : 'not inside one'}`, where(d), { hint: `Put it between ::::${c.parent} and :::: (a longer fence around the :::${d.n} blocks).` }));
  }
  const keys = schemaKeys(c.schema);
  if (keys) {
    for (const k of Object.keys(d.a)) {
      if (keys.includes(k)) continue;
      const guess = closest(k, keys);
      out.push(message('ComponentError', `Unknown attribute "${k}" of ${d.n}`, attrWhere(d, k), { hint: `${guess ? `Did you mean "${guess}"? ` : ''}${keys.length ? `${d.n} takes: ${keys.join(', ')}.` : `${d.n} takes no attributes.`}` }));
    }
  }
  // (after unknown attributes too: every problem of the directive at once)
  const r = c.schema.safeParse(d.a, { error: (iss) => plainError(iss, d.a) });
  if (!r.success) {
    for (const iss of r.error.issues) {
      if (iss.code === 'unrecognized_keys') continue;
      const key = iss.path.length ? String(iss.path[0]) : '';
      // An attribute not written at all is missing, whatever the schema's words for a wrong value (an enum's "Must be one of").
      const missing = !!key && iss.path.length === 1 && !Object.hasOwn(d.a, key);
      const said = missing && iss.message !== 'Required' ? `Required (${iss.message.replace(/^M/, 'm')})` : iss.message;
      // (the schema's words say what it takes: the hint says where that comes from, not the catalogue's general one)
      // (an imageFile() field reads front matter and data only: a directive's attributes are not read as files)
      const hint = isImageIssue(iss) ? `A component's attributes are text: declare "${key}" with z.string() and show it with <Image src={…}> from a path of static/ ("/img/photo.jpg"), or give the component an imageFile() field of the entry's front matter from its template.`
        : missing ? `Add the attribute: ${written(d)}{${key}="…"} (the schema of ${d.n} in sitegen.config.ts, components, requires it).`
        : `The schema of ${d.n} in sitegen.config.ts (components) decides what ${key ? `"${key}"` : 'its attributes'} may be: write ${key ? 'a value' : 'attributes'} it accepts, or change the schema.`;
      out.push(message('ComponentError', key ? `Attribute "${key}" of ${d.n}: ${said}` : `The attributes of ${d.n}: ${said}`, key ? attrWhere(d, key) : where(d), { hint }));
    }
  }
  return out;
}

const NO_COMPONENTS = {};
/** Each entry's problems under one set of components. An entry is read-only and dev keeps an unchanged entry's
 *  object, so a dev edit reads only the bodies it changed (10,000 bodies searched for directives: ~15 ms an edit). */
const checked = new WeakMap<Entry, { components: object; out: Message[] }>();

/** Every problem of the directives in the content's Markdown bodies (each entry once). */
export function componentMessages(config: SiteConfig, content: Content): Message[] {
  const components = config.components ?? NO_COMPONENTS;
  const seen = new Set<Entry>();
  const out: Message[] = [];
  const visit = (into: Message[], nodes: PlacedDirective[], parent: string | null) => {
    for (const n of nodes) {
      into.push(...directiveProblems(components, n.data, parent));
      visit(into, n.children, n.data.n);
    }
  };
  for (const value of Object.values(content)) {
    if (!Array.isArray(value)) continue;
    for (const e of value as Entry[]) {
      // (a body on disk that holds none says so without being read: nothing to keep for it)
      if (!e || typeof e !== 'object' || seen.has(e) || !bodyMayHold(e, 'component')) continue;
      seen.add(e);
      const known = checked.get(e);
      if (known?.components === components) { out.push(...known.out); continue; }
      const mine: Message[] = [];
      if (hasDirectives(e.html)) visit(mine, placedDirectives(e.html!), null);
      checked.set(e, { components, out: mine });
      out.push(...mine);
    }
  }
  return out;
}
