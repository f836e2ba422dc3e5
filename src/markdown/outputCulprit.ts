// outputCulprit: for a body whose HTML the content policy refuses (a plugin's Markdown extension wrote what
// content may not hold), the block of the body that renders it and the plugin whose extension it likely is,
// so the message points at that block and names the plugin. Each top-level block is rendered again on its
// own (only when a body is refused, so never on a good build's path).
import type { Marked, MarkedExtension, Token } from 'marked';
import { htmlPolicyViolation } from '../content/htmlPolicy.ts';

/** The plugin each marked extension came from (site/plugins.ts markdownExtensions records it). */
export const extensionOwner = new WeakMap<MarkedExtension, string>();

export interface Culprit {
  /** Where the block starts in the body, and where it ends. */
  start: number;
  end: number;
  /** The plugin named: the one whose custom token the block holds, or the only plugin with extensions. */
  plugin?: string;
}

/** The first top-level block whose own HTML breaks the policy, or null when none alone does. */
export function outputCulprit(md: Marked, tokens: Token[] & { links?: unknown }, body: string, extensions: readonly MarkedExtension[]): Culprit | null {
  // The engine's own markdown() features are not a site's plugin.
  const theirs = extensions.filter((e) => extensionOwner.has(e) && extensionOwner.get(e) !== 'sitegen:markdown');
  const byToken = new Map<string, string>();
  for (const e of theirs) for (const x of e.extensions ?? []) byToken.set(x.name, extensionOwner.get(e)!);
  const owners = [...new Set(theirs.map((e) => extensionOwner.get(e)!))];
  let at = 0;
  for (const t of tokens) {
    const i = t.raw ? body.indexOf(t.raw, at) : -1;
    const start = i < 0 ? at : i;
    const end = i < 0 ? at : i + t.raw.length;
    at = end;
    let html: string;
    try { html = md.parser(Object.assign([t], { links: tokens.links ?? {} }) as Token[]) as string; } catch { continue; }
    if (!htmlPolicyViolation(html)) continue;
    let plugin: string | undefined;
    md.walkTokens([t], (x) => { plugin ??= byToken.get(x.type); });
    return { start, end, plugin: plugin ?? (owners.length === 1 ? owners[0] : undefined) };
  }
  return null;
}

