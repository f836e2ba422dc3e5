// The raw-HTML opt-in (`html: 'sanitize'`): the body's whole rendered HTML goes through sanitize-html with
// an allowlist of prose elements, so raw HTML in Markdown can add a <details>, a <kbd> or an <img>, never a
// script, a style, an event handler, a form or a javascript: URL. Whole output, not each raw fragment: an
// opening tag and its closing tag are separate tokens, and Markdown between them must stay inside.
// sanitize-html (with postcss) takes ~125 ms to load, in every render worker: it is required on the first
// body that has raw HTML, not when the feature is switched on (most bodies of most sites have none).
import { createRequire } from 'node:module';
import path from 'node:path';
import type sanitizeHtmlType from 'sanitize-html';
import { PACKAGE_DIR } from '../siteModule/paths.ts';

type SanitizeHtml = typeof sanitizeHtmlType;
let sanitizeHtml: SanitizeHtml | null = null;

let options: sanitizeHtmlType.IOptions | null = null;
const optionsFor = (lib: SanitizeHtml): sanitizeHtmlType.IOptions => ({
  allowedTags: [
    ...lib.defaults.allowedTags,
    'img', 'picture', 'source', 'figure', 'figcaption', 'details', 'summary', 'section', 'sup', 'sub', 'ins', 'del', 'kbd', 'mark', 'abbr', 'input',
  ],
  allowedAttributes: {
    '*': ['id', 'class', 'title', 'lang', 'dir', 'aria-*', 'data-footnote*', 'data-footnotes'],
    a: ['href', 'name', 'rel', 'tabindex'],
    img: ['src', 'srcset', 'alt', 'width', 'height', 'loading', 'decoding'],
    source: ['srcset', 'type', 'media', 'width', 'height'],
    td: ['align', 'colspan', 'rowspan'],
    th: ['align', 'colspan', 'rowspan', 'scope'],
    ol: ['start', 'reversed'],
    details: ['open'],
    // Task lists' checkboxes, which marked renders disabled.
    input: ['type', 'checked', 'disabled'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'srcset'],
  allowProtocolRelative: false,
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
});

export function sanitize(html: string): string {
  // Required from sitegen's own package folder, which depends on it (the site may not).
  sanitizeHtml ??= createRequire(path.join(PACKAGE_DIR, 'package.json'))('sanitize-html') as SanitizeHtml;
  options ??= optionsFor(sanitizeHtml);
  return sanitizeHtml(html, options);
}
