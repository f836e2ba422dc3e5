// ownRedirects: the site's own static/_redirects, read as the link check reads pages (build and check). It is
// merged into the output's as written, so a rule is said (a warning: a host may answer paths this build does not
// write, a function's or a proxy's) where its target lies outside the site's base, or is a path of the site that
// is no page, alias or file. (Its old path may lie anywhere: an old URL from before the base, say.) Rules with placeholders, a
// splat, query conditions or another status than a redirect's, and targets on other hosts, are left alone.
import type { Message } from '../core/types.ts';
import { fileLocation, message, visibleControls } from '../core/errors.ts';
import { closest } from '../core/didYouMean.ts';
import type { LinkTargets } from './linkScan.ts';
import { isExactPath, isRedirect, readRule } from '../output/redirectRules.ts';

const FILE = '_redirects';
// Control characters shown escaped, as the file has them (in every form of the message: terminal, JSON, overlay).
const shown = visibleControls;

/** The warnings for `statics`' _redirects under `targets` (the output's pages, aliases and files, base-less). */
export function ownRedirectWarnings(statics: ReadonlyMap<string, Uint8Array>, targets: LinkTargets): Message[] {
  const bytes = statics.get(FILE);
  if (!bytes) return [];
  const base = targets.base ?? '/';
  const out: Message[] = [];
  const lines = Buffer.from(bytes).toString('utf8').split('\n');
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw; // (a file saved with CRLF)
    const r = readRule(line);
    if (!r || r.conditions || !isRedirect(r.status)) return;
    const { from, to } = r;
    if (!to.startsWith('/') || to.startsWith('//') || !isExactPath(from) || !isExactPath(to)) return;
    // (the target found after the old path, which it may start)
    const at = () => fileLocation(`static/${FILE}`, i + 1, line.indexOf(to, line.indexOf(from) + from.length) + 1, shown(line));
    const [From, To] = [shown(from), shown(to)];
    const target = to.split(/[?#]/, 1)[0]!;
    if (base !== '/' && target === base.slice(0, -1)) return; // (the site's root, without its slash)
    if (base !== '/' && !target.startsWith(base)) {
      const inside = targets.has(target);
      out.push(message('RedirectWarning', `The rule for ${From} redirects to ${To}, outside the site's base ${base}${inside ? '' : ', which is no page of the site either'}`, at(), { hint: inside ? `Write the target with the base: ${base}${To.slice(1)}.` : `Write the target as it is served, with the base (${base}…).` }));
      return;
    }
    const path = base !== '/' ? target.slice(base.length - 1) : target;
    let decoded = path;
    try { decoded = decodeURI(path); } catch { /* as written */ }
    if (targets.has(path) || targets.has(decoded)) return;
    const near = path.length <= 200 ? closest(path, [...(targets.paths?.() ?? [])].slice(0, 50_000)) : undefined;
    out.push(message('RedirectWarning', `The rule for ${From} redirects to ${To}, which is not a page, alias or file of the site`, at(), { hint: near ? `Did you mean ${base}${near.slice(1)}?` : 'Point it at a page of the site, or take the rule out.' }));
  });
  return out;
}
