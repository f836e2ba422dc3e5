// The render stage of components in Markdown: a page's HTML carries each directive of its Markdown bodies
// as a <sitegen-c> element (src/markdown/directives.ts); here each becomes its registered component's
// output, innermost first. The attributes were checked with the component's schema when the content
// loaded (src/markdown/components.ts); its output is what the component gets as props, with `children`:
// the inner Markdown's HTML (which passed the content policy) in place of a <sitegen-slot> the component
// renders, or for an island (hydrated like any) a <sitegen-children> element holding it; an inline
// component's plain label is a string. A component that throws becomes a ComponentRenderFailure, which
// render/page.ts locates at the directive.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { MarkdownComponent } from '../core/types.ts';
import { hasDirectives, placedDirectives, type DirectiveData, type PlacedDirective } from '../markdown/directiveElements.ts';
import { HTML_CHILDREN } from '../islands/children.ts';

/** A component in Markdown threw (or could not be rendered): the directive's data and what was thrown. */
export class ComponentRenderFailure extends Error {
  constructor(readonly directive: DirectiveData, readonly thrown: unknown) {
    super(`component ${directive.n} threw: ${String((thrown as Error)?.message ?? thrown)}`);
  }
}

const SLOT = '<sitegen-slot></sitegen-slot>';
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** An inline label's HTML as a string when it is plain text (marked's five escapes only), else null. */
function plainText(html: string): string | null {
  if (html.includes('<')) return null;
  let bad = false;
  const text = html.replace(/&([#a-z0-9]{1,8});|&/g, (m, e: string | undefined) => {
    const v = e !== undefined ? ENTITIES[e] : undefined;
    if (v === undefined) bad = true;
    return v ?? m;
  });
  return bad ? null : text;
}

function renderOne(components: Record<string, MarkdownComponent>, d: DirectiveData, inner: string): string {
  const c = Object.hasOwn(components, d.n) ? components[d.n] : undefined;
  if (!c) throw new ComponentRenderFailure(d, new Error(`no component "${d.n}" is registered`));
  const parsed = c.schema.safeParse(d.a);
  if (!parsed.success) throw new ComponentRenderFailure(d, new Error(`its attributes do not match its schema: ${parsed.error.issues[0]?.message}`));
  const island = !!(c.component as { sitegenIsland?: string }).sitegenIsland;
  const text = d.k === 'block' ? null : plainText(inner);
  const html = d.k === 'block' || (text === null && inner !== '');
  const children = !html ? (d.k === 'leaf' && inner === '' ? undefined : text) : island ? { [HTML_CHILDREN]: inner } : createElement('sitegen-slot');
  try {
    const out = renderToStaticMarkup(createElement(c.component, { ...(parsed.data as object), children }));
    return html && !island ? out.split(SLOT).join(inner) : out;
  } catch (e) {
    throw new ComponentRenderFailure(d, e);
  }
}

function expand(html: string, node: PlacedDirective, components: Record<string, MarkdownComponent>): string {
  let inner = '';
  let last = node.innerStart;
  for (const child of node.children) {
    inner += html.slice(last, child.open) + expand(html, child, components);
    last = child.close;
  }
  inner += html.slice(last, node.innerEnd < 0 ? html.length : node.innerEnd);
  return renderOne(components, node.data, inner);
}

/** A page's HTML with its Markdown components rendered (the same string when it has none). */
export function expandComponents(html: string, components: Record<string, MarkdownComponent> | undefined): string {
  if (!components || !hasDirectives(html)) return html;
  let out = '';
  let last = 0;
  for (const node of placedDirectives(html)) {
    out += html.slice(last, node.open) + expand(html, node, components);
    last = node.close < 0 ? html.length : node.close;
  }
  return out + html.slice(last);
}
