// The Markdown features a site opts into: `markdown({ headingIds, footnotes, smartQuotes, highlight, html })`
// from "sitegen-islands" makes a plugin whose `markdown` hook carries the options as plain data. The Markdown stage
// (src/markdown/compile.ts) recognises that entry, loads the libraries the options need only then
// (setup.ts), and the content cache key names the options because they are data, not closures.
// This module stays tiny on purpose: the site's config imports it on every build, cached or not.
import type { MarkedExtension } from 'marked';
import type { SitegenPlugin } from '../site/plugins.ts';

export interface MarkdownOptions {
  /** GitHub-style ids on headings (duplicates suffixed -1, -2 …) with a "#" anchor link. Default false. */
  headingIds?: boolean;
  /** `[^1]` references and `[^1]: …` notes, rendered as a section at the end of the body. Default false. */
  footnotes?: boolean;
  /** “Curly” quotes, – and — for -- and ---, … for ... in prose (never in code). Default false. */
  smartQuotes?: boolean;
  /** Build-time syntax highlighting of fenced code with a language (Prism's `token` classes, no script). Default false. */
  highlight?: boolean;
  /** Raw HTML in Markdown: refused as a located error (default) or allowed through a sanitizer. */
  html?: 'refuse' | 'sanitize';
}

/** The marker property that carries the options through the plugins' marked extension list. */
export const FEATURES = 'sitegenMarkdownFeatures';

const KEYS: Record<keyof MarkdownOptions, (v: unknown) => boolean> = {
  headingIds: (v) => typeof v === 'boolean',
  footnotes: (v) => typeof v === 'boolean',
  smartQuotes: (v) => typeof v === 'boolean',
  highlight: (v) => typeof v === 'boolean',
  html: (v) => v === 'refuse' || v === 'sanitize',
};

/**
 * The engine's Markdown features as a plugin: `plugins: [markdown({ headingIds: true, highlight: true })]`.
 * Unknown or mistyped options throw, so the config fails to load with the option named.
 */
export function markdown(options: MarkdownOptions = {}): SitegenPlugin {
  const clean: Required<MarkdownOptions> = { headingIds: false, footnotes: false, smartQuotes: false, highlight: false, html: 'refuse' };
  for (const [k, v] of Object.entries(options)) {
    const ok = KEYS[k as keyof MarkdownOptions];
    if (!ok) throw new Error(`markdown(): unknown option "${k}" (known: ${Object.keys(KEYS).join(', ')})`);
    if (v === undefined) continue;
    if (!ok(v)) throw new Error(`markdown(): option "${k}" cannot be ${JSON.stringify(v)} (${k === 'html' ? `"refuse" or "sanitize"` : 'true or false'})`);
    (clean as Record<string, unknown>)[k] = v;
  }
  return { name: 'sitegen:markdown', markdown: [{ [FEATURES]: clean } as MarkedExtension] };
}

/** The engine features an extension list asks for (the last markdown() wins), and the real marked extensions. */
export function splitExtensions(extensions: readonly MarkedExtension[]): { features: Required<MarkdownOptions> | null; marked: MarkedExtension[] } {
  let features: Required<MarkdownOptions> | null = null;
  const marked: MarkedExtension[] = [];
  for (const e of extensions) {
    const f = (e as Record<string, unknown>)[FEATURES] as Required<MarkdownOptions> | undefined;
    if (f) features = f; else marked.push(e);
  }
  return { features, marked };
}
