// The raw-HTML opt-in (`html: 'sanitize'`): the body's whole rendered HTML goes through sanitize-html with
// an allowlist of prose elements, so raw HTML in Markdown can add a <details>, a <kbd> or an <img>, never a
// script, a style, an event handler, a form or a javascript: URL. Whole output, not each raw fragment: an
// opening tag and its closing tag are separate tokens, and Markdown between them must stay inside.
// sanitize-html (with postcss) takes ~125 ms to load, in every render worker: it is required on the first
// body that has raw HTML, not when the feature is switched on (most bodies of most sites have none).
import { createRequire } from 'node:module';
import path from 'node:path';
import type sanitizeHtmlType from 'sanitize-html';
import { PACKAGE_DIR } from '../site/paths.ts';
import { ALLOWED_ATTRIBUTES, ALLOWED_TAGS, URL_ATTRIBUTES } from '../content/htmlPolicy.ts';

type SanitizeHtml = typeof sanitizeHtmlType;
let sanitizeHtml: SanitizeHtml | null = null;

let options: sanitizeHtmlType.IOptions | null = null;
// The content policy's allowlist (src/content/htmlPolicy.ts), which also checks every body's output.
const optionsFor = (): sanitizeHtmlType.IOptions => ({
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: [...URL_ATTRIBUTES],
  allowProtocolRelative: false,
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
});

export function sanitize(html: string): string {
  // Required from sitegen's own package folder, which depends on it (the site may not).
  sanitizeHtml ??= createRequire(path.join(PACKAGE_DIR, 'package.json'))('sanitize-html') as SanitizeHtml;
  options ??= optionsFor();
  return sanitizeHtml(html, options);
}
