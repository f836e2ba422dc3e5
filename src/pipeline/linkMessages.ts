// linkMessages: the words of the link check (linkScan.ts decides what is broken, as data; links.ts locates
// each use in its source). One message per use of a broken link, located where its source writes it, or
// one for the group when many pages share the link (a template link); a hint says what would fix it.
import type { Message } from '../core/types.ts';
import { message, fileLocation } from '../core/errors.ts';
import { brokenAnchors, brokenPaths, safeDecode, type BrokenLink, type LinkTargets, type LinkUse, type PageLinks } from './linkScan.ts';

/** A link to an image file of the kinds image() reads (its dimensions from the file's header). */
const IMAGE_FILE = /\.(?:png|jpe?g|gif|webp|svg)$/i;

/** A use's link as its source writes it, and as served when the build added the site's base to it. */
const linkOf = (u: LinkUse): string => (u.written ? `${u.written} (served as ${u.link})` : u.link);

/** Pages that share a broken link (a layout or template link) are reported once, with a few examples. */
const GROUP_AFTER = 3;

/** The uses a broken link's messages name: all of them, or the first few of a group. */
export const shownUses = (b: BrokenLink): LinkUse[] => (b.uses.length > GROUP_AFTER ? b.uses.slice(0, GROUP_AFTER) : b.uses);

/** Broken paths and broken fragments among `pages`, as messages (a fragment is checked when its page is among them). */
export function checkLinks(pages: PageLinks[], targets: LinkTargets): Message[] {
  return linkMessages([...brokenPaths(pages, targets), ...brokenAnchors(pages, targets.base)]);
}

/** The messages of broken links: one per use, located where its source writes the link when known, or
 *  one for the group when many pages share the link (a template link). The one place their words are made. */
export function linkMessages(broken: BrokenLink[]): Message[] {
  const out: Message[] = [];
  for (const b of broken) {
    let why: (u: LinkUse) => string, groupWhy: string, hint: string | undefined;
    if (b.kind === 'path') {
      // (a relative link: the path it resolves to, which is what is missing)
      const resolved = b.resolved.startsWith('\0') ? b.resolved.slice(1) : b.base && b.base !== '/' ? b.base + b.resolved.slice(1) : b.resolved;
      why = (u) => (!u.link.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(u.link) ? `which resolves to ${resolved}, not a page, alias or file` : 'which is not a page, alias or file');
      groupWhy = why(b.uses[0]);
      const link = b.uses[0].link;
      // A fix as the source would write it: without the base when the link is written without it (Markdown).
      if (b.fix && 'to' in b.fix && b.uses[0].written && b.base && b.base !== '/' && b.fix.to.startsWith(b.base)) b.fix = { ...b.fix, to: b.fix.to.slice(b.base.length - 1) };
      // The base twice ("/repo/repo/x/"): a URL that had it already went through href() (paginate()'s prev and next have it).
      hint = b.fix?.kind === 'twice' ? `The site's base ${b.base} is in this link twice: href() adds it to a URL that already has it. Write such a URL as it is (paginate()'s prev and next include the base); pass href() a path without it.`
        : b.fix?.kind === 'base' ? `The site is served under ${b.fix.base}: in a template write ${IMAGE_FILE.test(link) ? `image('${link}').src from "sitegen-islands" (with its width and height), or href('${link}'),` : `href('${link}') from "sitegen-islands",`} which adds the base, or ${b.fix.base}${link.replace(/^\/+/, '')} (Markdown links and images get the base by themselves).`
        : b.fix?.kind === 'slash' ? `Page URLs end with "/": link to ${b.fix.to} instead.`
        : b.fix?.kind === 'noSlash' ? `Page URLs have no trailing "/" (trailingSlash: 'never'): link to ${b.fix.to} instead.`
        : b.fix?.kind === 'page' ? `Link to the page's URL, not its ${/\.md(?:[#?]|$)/i.test(link) ? 'Markdown' : 'content'} file: ${b.fix.to}`
        : b.fix?.kind === 'named' ? `${b.fix.file} is served at ${b.fix.to} (its route names its page): link there.`
        : b.fix?.kind === 'draft' ? `It may be the page of ${b.fix.file}, a draft, left out of this build (\`sitegen dev\` and \`sitegen build --drafts\` show drafts): publish it, or link to it once it is published.`
        : b.fix?.kind === 'near' ? `Did you mean ${b.fix.to}?`
        : b.fix?.kind === 'relative' ? `A relative link resolves against the page's URL, which ends with "/", so ${link} on ${b.uses[0].page} is ${b.resolved}: link to ${b.fix.to} (or ../${link.replace(/^\.\//, '')}).` : undefined;
    } else {
      const fragment = safeDecode(b.fragment);
      const first = b.uses[0];
      const has = b.twice ? `more than one element with id "${fragment}" (a browser goes to the first)` : `no element with id "${fragment}"`;
      groupWhy = `but ${b.target === first.page && first.link.startsWith('#') ? 'the page' : b.target} has ${has}`;
      why = (u) => (u.link.startsWith('#') ? `but the page has ${has}` : groupWhy);
      hint = b.twice ? 'An id names one element of a page: a heading whose id a template uses too (## Main beside <main id="main">) takes it twice. Rename the heading, or the template\'s id.'
        : b.near ? `Did you mean ${b.uses[0].link.startsWith('#') ? '' : b.uses[0].link.slice(0, b.uses[0].link.indexOf('#'))}#${b.near}?`
        : b.ids?.length ? `Link to an id the page has: ${b.ids.slice(0, 6).map((i) => `#${i}`).join(', ')}${b.ids.length > 6 ? ' …' : ''} (headings get ids with markdown({ headingIds: true })).`
        : 'Link to an id the page has (headings get ids with markdown({ headingIds: true })), or fix the fragment.';
    }
    const extra = hint ? { hint } : {};
    if (b.uses.length > GROUP_AFTER) {
      // Written in one place of the site's code (a layout's link): the message is located there.
      const shown = shownUses(b);
      const one = shown.every((u) => u.at && u.at.file === shown[0].at!.file && u.at.line === shown[0].at!.line) ? shown[0].at! : null;
      const m = message('BrokenLink', `${b.uses.length} pages link to ${linkOf(b.uses[0])}, ${groupWhy}${one ? '' : ' (a shared template link?)'}`, one, extra);
      for (const u of shown) m.notes.push(u.at && !one ? { text: `on page ${u.page}`, location: u.at } : { text: `on page ${u.page}${u.source ? ` (${u.source})` : ''}`, location: null });
      out.push(m);
    } else {
      for (const u of b.uses) {
        const m = message('BrokenLink', `page ${u.page} links to ${linkOf(u)}, ${why(u)}`, u.at ?? (u.source ? fileLocation(u.source) : null), extra);
        for (const at of u.also ?? []) m.notes.push({ text: 'the same link again', location: at });
        out.push(m);
      }
    }
  }
  return out;
}
