// The Marked instance and after-steps for a site's Markdown features (options.ts). Loaded by the Markdown
// stage only when a site opts into a feature, so a site without them never evaluates Prism, sanitize-html
// or the others. Order: the engine's extensions first (footnotes, heading ids, highlighting), then the
// site's own marked extensions, which may override a renderer of ours.
import { Marked, type MarkedExtension, type Token } from 'marked';
import markedFootnote from 'marked-footnote';
import type { MarkdownOptions } from './options.ts';
import { assignHeadingIds, headingIdExtension } from './headings.ts';
import { highlightExtension } from './highlight.ts';
import { sanitize } from './sanitize.ts';
import { smartQuotes } from './smartQuotes.ts';
import { footnoteLabels } from './footnotes.ts';

export interface MarkdownSetup {
  md: Marked;
  /** Raw HTML tokens pass the content policy (they go through the sanitizer in `finish`). */
  rawHtml: boolean;
  /** Footnotes are on: a reference with no note is a problem (footnotes.ts). */
  footnotes: boolean;
  /** Output the policy check refuses is sanitized instead of refused (`html: 'sanitize'`). */
  sanitize?: (html: string) => string;
  /** Runs on the checked tokens before they render (heading ids). */
  prepare?: (tokens: Token[]) => void;
  /** After marked: the sanitizer (only for a body that had raw HTML: any other body is sanitized only when
   *  the output check, src/content/htmlPolicy.ts, finds something; sanitizing costs more than rendering),
   *  smart punctuation. */
  finish: (html: string, hadRawHtml: boolean) => string;
}

/** The id of the footnotes section's heading (marked-footnote's default prefix + "label"). */
const FOOTNOTE_LABEL = 'footnote-label';

/** A Marked setup for the features a site asked for: `base`, the engine's own extensions (compile.ts ENGINE),
 *  then those of the features, then the site's plugins' (`own`). */
export function markdownSetup(features: Required<MarkdownOptions>, base: readonly MarkedExtension[], own: MarkedExtension[]): MarkdownSetup {
  const engine: MarkedExtension[] = [...base];
  if (features.footnotes) engine.push(markedFootnote(), footnoteLabels);
  if (features.headingIds) engine.push(headingIdExtension);
  if (features.highlight) engine.push(highlightExtension());
  const md = new Marked({ gfm: true }, ...engine, ...own);
  const sanitizing = features.html === 'sanitize';
  return {
    md,
    rawHtml: sanitizing,
    footnotes: features.footnotes,
    sanitize: sanitizing ? sanitize : undefined,
    // Ids per document, in source order; the footnotes' heading keeps its id.
    prepare: features.headingIds ? (tokens) => assignHeadingIds(md, tokens, features.footnotes ? [FOOTNOTE_LABEL] : []) : undefined,
    finish: (html, hadRawHtml) => {
      if (sanitizing && hadRawHtml) html = sanitize(html);
      return features.smartQuotes ? smartQuotes(html) : html;
    },
  };
}
