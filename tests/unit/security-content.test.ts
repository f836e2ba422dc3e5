// Content must never execute, and never reach outside the site (issue 12): front matter in another language
// than YAML, symlinks under static/ and content/ that point out of the site, site facts substituted into
// rendered Markdown, entity-encoded javascript: links, and inputs that used to crash sitegen. Each case runs
// the real CLI on a copy of a fixture site and expects a located error (exit 1, no stack, dist/ untouched).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, fixture } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';
import { siteCopies, treeSnapshot } from '../helpers/tree.ts';
import { SCRATCH } from '../helpers/scratch.ts';
import { createDevSite } from '../../src/dev/devSite.ts';
import { hostOf } from '../helpers/devHost.ts';
import { formatMessage } from '../../src/core/errors.ts';
import { parseContentFile } from '../../src/content/parse.ts';

/** Builds a site that must build (the pristine one, and the shared copy of it before the first case). */
async function buildClean(site: string): Promise<void> {
  const b = await siteAt(site).build({ quiet: true });
  if (b.code !== 0) throw new Error(b.stderr);
}

const { work, pristine, freshSite, withContent } = siteCopies('sitegen-security-', SCRATCH, { warm: buildClean });

/** A user error: exit 1, the expected located line, no stack, no crash banner. */
function expectLocated(r: { code: number | null; stdout: string; stderr: string }, expected: RegExp) {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(expected);
  expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
  expect(r.stderr).not.toContain('sitegen crashed');
}

beforeAll(async () => {
  fs.cpSync(fixture('basic'), pristine, { recursive: true, dereference: true, filter: (src) => !/[/\\](dist|\.sitegen)([/\\]|$)/.test(src) });
  await buildClean(pristine);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('front matter is YAML only', () => {
  // Front matter that writes a marker file when any JavaScript engine evaluates it.
  const evil = (marker: string, fence: string) =>
    `${fence}\n{ title: (process.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'), 'About') }\n---\nBody\n`;

  // Cases that change only content run on the shared copy of the site, put back after each.
  it.each(['---js', '---javascript', '--- js ', '---JavaScript'])('%s is refused by build and check, and never run', async (fence) => {
    const marker = path.join(work, `ran-${fence.replace(/\W/g, '')}.txt`);
    await withContent({ 'content/pages/about.md': evil(marker, fence) }, async (site) => {
      const before = treeSnapshot(path.join(site, 'dist'));
      for (const cmd of ['build', 'check']) {
        const r = await siteAt(site).run(cmd);
        expectLocated(r, /content\/pages\/about\.md:1:\d+ Front matter must be YAML/);
        expect(r.stderr).toContain('Open the front matter with a bare "---" line');
      }
      expect(fs.existsSync(marker)).toBe(false);
      expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
    });
  });

  it.each([['---toml', 'title = "About"'], ['---coffee', 'title: "About"'], ['---json', '{ "title": "About" }'], ['---yml', 'title: About']])('%s is a located error, not a crash', async (fence, body) => {
    await withContent({ 'content/pages/about.md': `${fence}\n${body}\n---\nBody\n` }, async (site) => {
      expectLocated((await siteAt(site).build()), /content\/pages\/about\.md:1:4 Front matter must be YAML/);
    });
  });

  it('a bare fence and "---yaml" still work', async () => {
    const site = freshSite('fm-yaml');
    fs.writeFileSync(path.join(site, 'content/pages/about.md'), '---yaml\ntitle: About YAML\n---\nBody\n');
    const r = await siteAt(site).build({ quiet: true });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(site, 'dist/about/index.html'), 'utf8')).toContain('About YAML');
  });

  it('the content cache never answers for a file that became ---js', async () => {
    const site = freshSite('fm-cache');
    const marker = path.join(site, 'ran.txt');
    expect((await siteAt(site).build({ quiet: true })).code).toBe(0); // fills the cache
    const file = path.join(site, 'content/pages/about.md');
    const st = fs.statSync(file);
    fs.writeFileSync(file, evil(marker, '---js'));
    fs.utimesSync(file, st.atime, st.mtime); // same mtime: only size and content differ
    expectLocated((await siteAt(site).build()), /content\/pages\/about\.md:1:4 Front matter must be YAML/);
    expectLocated((await siteAt(site).check()), /content\/pages\/about\.md:1:4 Front matter must be YAML/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('dev reports it with file and line and never runs it', async () => {
    const site = freshSite('fm-dev');
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(site, 'node_modules'), 'dir');
    const marker = path.join(site, 'ran.txt');
    fs.writeFileSync(path.join(site, 'content/pages/about.md'), evil(marker, '---js'));
    const dev = await createDevSite({ root: site });
    try {
      expect((await dev.start()).errors.map(formatMessage).join('\n')).toMatch(/content\/pages\/about\.md:1:4 Front matter must be YAML/);
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      await dev.close();
    }
  });
});

describe('symlinks never lead out of the site', () => {
  const SECRET = 'SECRET-MARKER-never-published';

  /** A site with a secret beside it (outside the root) and one inside it, hidden. */
  function siteWithSecrets(name: string): string {
    const site = freshSite(name);
    fs.writeFileSync(path.join(work, `${name}.env`), `KEY=${SECRET}\n`);
    fs.writeFileSync(path.join(site, '.env'), `KEY=${SECRET}\n`);
    return site;
  }

  it.each([
    ['a file outside the root', (site: string) => fs.symlinkSync(path.join(site, `../${path.basename(site)}.env`), path.join(site, 'static/x.txt')), 'static/x.txt', 'outside the site root'],
    ['the hidden .env of the root', (site: string) => fs.symlinkSync('../.env', path.join(site, 'static/x.txt')), 'static/x.txt', 'a hidden file'],
    ['/proc/self/environ', (site: string) => fs.symlinkSync('/proc/self/environ', path.join(site, 'static/x.txt')), 'static/x.txt', 'outside the site root'],
    ['a folder outside the root', (site: string) => { fs.mkdirSync(path.join(work, 'outdir'), { recursive: true }); fs.writeFileSync(path.join(work, 'outdir/secret.txt'), SECRET); fs.symlinkSync(path.join(work, 'outdir'), path.join(site, 'static/docs')); }, 'static/docs', 'outside the site root'],
    ['static/ itself', (site: string) => { fs.mkdirSync(path.join(work, 'outstatic'), { recursive: true }); fs.writeFileSync(path.join(work, 'outstatic/secret.txt'), SECRET); fs.rmSync(path.join(site, 'static'), { recursive: true }); fs.symlinkSync(path.join(work, 'outstatic'), path.join(site, 'static')); }, 'static', 'outside the site root'],
  ])('static/: a link to %s is a located error and dist/ is untouched', async (name, plant, rel, why) => {
    const site = siteWithSecrets(`static-${name.replace(/\W+/g, '-')}`);
    plant(site);
    const before = treeSnapshot(path.join(site, 'dist'));
    const r = await siteAt(site).build();
    expectLocated(r, new RegExp(`(^|\\n)(✗ )?${rel.replace(/\//g, '\\/')} Symlink to ${why}`));
    expect(r.stderr + r.stdout).not.toContain(SECRET);
    expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
  });

  it.each([
    ['a file outside the root', 'content/items/gamma.yaml', (site: string) => { fs.writeFileSync(path.join(work, 'gamma.yaml'), 'title: Gamma\ntags: [a, b]\nprice: 1\n'); fs.symlinkSync(path.join(work, 'gamma.yaml'), path.join(site, 'content/items/gamma.yaml')); }],
    ['a folder outside the root', 'content/items/more', (site: string) => { fs.mkdirSync(path.join(work, 'more'), { recursive: true }); fs.writeFileSync(path.join(work, 'more/delta.yaml'), 'title: Delta\ntags: [a, b]\nprice: 1\n'); fs.symlinkSync(path.join(work, 'more'), path.join(site, 'content/items/more')); }],
    ['the hidden .env of the root', 'content/items/env.yaml', (site: string) => fs.symlinkSync('../../.env', path.join(site, 'content/items/env.yaml'))],
  ])('content/: a link to %s is a located error in build and check', async (name, rel, plant) => {
    const site = siteWithSecrets(`content-${name.replace(/\W+/g, '-')}`);
    plant(site);
    const before = treeSnapshot(path.join(site, 'dist'));
    for (const cmd of ['build', 'check']) {
      const r = await siteAt(site).run(cmd);
      expectLocated(r, new RegExp(`(^|\\n)(✗ )?${rel.replace(/\//g, '\\/')} Symlink to`));
      expect(r.stderr + r.stdout).not.toContain(SECRET);
    }
    expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
  });

  it('the parser itself refuses a linked file out of the site (dev reads changed files directly)', async () => {
    const site = siteWithSecrets('parse-guard');
    fs.writeFileSync(path.join(work, 'parse-guard.yaml'), `title: ${SECRET}\ntags: [a, b]\nprice: 1\n`);
    fs.symlinkSync(path.join(work, 'parse-guard.yaml'), path.join(site, 'content/items/x.yaml'));
    const r = await parseContentFile(site, 'content/items/x.yaml');
    expect(r.errors.map(formatMessage)).toEqual(['content/items/x.yaml Symlink to outside the site root: sitegen does not read or publish it']);
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });

  it('dev refuses the same links: a located error, and the linked file is never served', async () => {
    const site = siteWithSecrets('dev-static');
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(site, 'node_modules'), 'dir');
    fs.symlinkSync(path.join(site, '../dev-static.env'), path.join(site, 'static/x.txt'));
    const dev = await createDevSite({ root: site });
    const host = await hostOf(dev);
    try {
      expect((await dev.start()).errors.map(formatMessage).join('\n')).toMatch(/(^|\n)static\/x\.txt Symlink to outside the site root/);
      const x = await host.get('/x.txt');
      expect([x.status, x.body.includes(SECRET)]).toEqual([503, false]); // the site never built: the placeholder
      // A link planted while dev runs is refused the same way when the watcher reports it.
      fs.symlinkSync('../.env', path.join(site, 'static/y.txt'));
      const r = await dev.apply([{ file: 'static/y.txt', kind: 'add' }]);
      expect(r!.errors.map(formatMessage).join('\n')).toMatch(/(^|\n)static\/y\.txt Symlink to a hidden file/);
      const y = await host.get('/y.txt');
      expect([y.status, y.body.includes(SECRET)]).toEqual([503, false]); // the site never built: the placeholder
      expect(JSON.stringify([...dev.output.statics.values()].map((b) => Buffer.from(b).toString()))).not.toContain(SECRET);
    } finally {
      await host.close();
      await dev.close();
    }
  });

  it('dev lists content/ as build does: a link out of the site is the same located error', async () => {
    const site = siteWithSecrets('dev-content');
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(site, 'node_modules'), 'dir');
    fs.writeFileSync(path.join(work, 'dev-gamma.yaml'), `title: ${SECRET}\ntags: [a, b]\nprice: 1\n`);
    fs.symlinkSync(path.join(work, 'dev-gamma.yaml'), path.join(site, 'content/items/gamma.yaml'));
    const dev = await createDevSite({ root: site });
    try {
      expect((await dev.start()).errors.map(formatMessage)).toEqual(['content/items/gamma.yaml Symlink to outside the site root: sitegen does not read or publish it']);
      expect(JSON.stringify([...dev.output.pages.values()])).not.toContain(SECRET);
    } finally {
      await dev.close();
    }
  });

  it('links that stay inside the site keep working', async () => {
    const site = freshSite('links-inside');
    fs.mkdirSync(path.join(site, 'shared'));
    fs.writeFileSync(path.join(site, 'shared/notes.txt'), 'shared notes');
    fs.symlinkSync('../shared/notes.txt', path.join(site, 'static/notes.txt'));
    fs.symlinkSync('../shared', path.join(site, 'static/shared'));
    fs.writeFileSync(path.join(site, 'shared/gamma.yaml'), 'title: Gamma\ntags: [a, b]\nprice: 1\n');
    fs.symlinkSync('../../shared/gamma.yaml', path.join(site, 'content/items/gamma.yaml'));
    const r = await siteAt(site).build({ quiet: true });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(site, 'dist/notes.txt'), 'utf8')).toBe('shared notes');
    expect(fs.readFileSync(path.join(site, 'dist/shared/notes.txt'), 'utf8')).toBe('shared notes');
    expect(fs.readFileSync(path.join(site, 'dist/items/gamma/index.html'), 'utf8')).toContain('Gamma');
  });
});

describe('Markdown that used to pass or crash', () => {
  it.each([
    ['an entity-encoded javascript: link', 'See [a](javascript&#58;alert(1)).', /content\/pages\/about\.md:5:5 Link to a javascript: URL is not allowed/],
    ['a reference-style javascript&colon; image', 'See ![a][r].\n\n[r]: JaVa&#x09;ScRiPt&colon;alert(1)', /content\/pages\/about\.md:5:5 Image to a javascript: URL is not allowed/],
    ['a line of 2,000 ">"', '>'.repeat(2000) + ' deep', /content\/pages\/about\.md:5:1 Blockquotes and lists are nested more than 32 levels deep/],
    ['2,000 nested list markers', '- '.repeat(2000) + 'deep', /content\/pages\/about\.md:5:1 Blockquotes and lists are nested more than 32 levels deep/],
  ])('%s is a located error in build and check', async (_name, body, expected) => {
    // On the shared copy of the site, put back after the case.
    await withContent({ 'content/pages/about.md': `---\ntitle: About\n---\nIntro\n${body}\n` }, async (site) => {
      const before = treeSnapshot(path.join(site, 'dist'));
      for (const cmd of ['build', 'check']) expectLocated((await siteAt(site).run(cmd)), expected);
      expect(treeSnapshot(path.join(site, 'dist'))).toBe(before);
    });
  });
});

describe('site facts substituted into pages ({token})', () => {
  // The real site (its templates own the token mechanism), copied so its files can be edited.
  const real = path.join(work, 'real');
  beforeAll(() => {
    fs.mkdirSync(real);
    for (const f of ['content', 'templates', 'static', 'plugins', 'supabase', 'sitegen.config.ts', 'package.json', 'tsconfig.json']) {
      if (fs.existsSync(path.join(REPO, f))) fs.cpSync(path.join(REPO, f), path.join(real, f), { recursive: true });
    }
  });
  const edit = (rel: string, from: string | RegExp, to: string) => {
    const file = path.join(real, rel);
    const text = fs.readFileSync(file, 'utf8');
    const next = text.replace(from, to);
    expect(next).not.toBe(text);
    fs.writeFileSync(file, next);
    return () => fs.writeFileSync(file, text);
  };

  it('a value from site.yaml reaches the manifesto HTML escaped, never as markup', async () => {
    // `launch` has a month-year schema now, so the free-text fact `premiumPrice` carries the payload, named
    // by a token added to the manifesto's Markdown.
    const restoreSite = edit('content/site.yaml', /^premiumPrice: .*$/m, 'premiumPrice: "<img src=x onerror=alert(1)> & more"');
    const restoreBody = edit('content/pages/manifesto.md', /\n*$/, '\n\nPremium starts from {premiumPrice}.\n');
    const restore = () => { restoreBody(); restoreSite(); };
    try {
      const r = await siteAt(real).build({ quiet: true });
      expect(r.code, r.stderr).toBe(0);
      const html = fs.readFileSync(path.join(real, 'dist/manifesto/index.html'), 'utf8');
      expect(html).not.toContain('<img src=x onerror');
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; more');
    } finally {
      restore();
    }
  });

  it.each([
    ['{constructor} in content/pages/faqs.yaml', 'content/pages/faqs.yaml', /^badge: FAQ$/m, 'badge: FAQ {constructor}', /content\/pages\/faqs\.yaml:5:8 badge: Unknown fact \{constructor\}/],
    ['{toString} in content/pages/support.yaml', 'content/pages/support.yaml', /^badge: Support$/m, 'badge: Support {toString}', /content\/pages\/support\.yaml:\d+:8 badge: Unknown fact \{toString\}/],
    ['{__proto__} in content/pages/faqs.yaml', 'content/pages/faqs.yaml', /^badge: FAQ$/m, 'badge: FAQ {__proto__}', /content\/pages\/faqs\.yaml:5:8 badge: Unknown fact \{__proto__\}/],
    ['{hasOwnProperty} in content/legal/legal.yaml', 'content/legal/legal.yaml', /^heading: Legal and Policies$/m, 'heading: Legal {hasOwnProperty} Policies', /content\/legal\/legal\.yaml:5:10 heading: Unknown placeholder \{hasOwnProperty\}/],
    ['{constructor} in content/legal/legal.yaml', 'content/legal/legal.yaml', /^heading: Legal and Policies$/m, 'heading: Legal {constructor} Policies', /content\/legal\/legal\.yaml:5:10 heading: Unknown placeholder \{constructor\}/],
    ['{constructor} in the manifesto\'s Markdown body', 'content/pages/manifesto.md', /do \{launchOpens\}\./, 'do {launchOpens} {constructor}.', /content\/pages\/manifesto\.md:68:24 Unknown fact \{constructor\} in the Markdown body/],
    ['{nope} in the manifesto\'s Markdown body', 'content/pages/manifesto.md', /do \{launchOpens\}\./, 'do {launchOpens} {nope}.', /content\/pages\/manifesto\.md:68:24 Unknown fact \{nope\} in the Markdown body/],
    ['{nope} in content/legal/legal.yaml', 'content/legal/legal.yaml', /^heading: Legal and Policies$/m, 'heading: Legal {nope} Policies', /content\/legal\/legal\.yaml:5:10 heading: Unknown placeholder \{nope\}/],
  ])('%s is a located unknown token, never a function\'s source', async (_name, file, from, to, expected) => {
    const restore = edit(file, from, to);
    try {
      const r = await siteAt(real).check();
      expectLocated(r, expected);
      expect(r.stderr).not.toContain('[native code]');
    } finally {
      restore();
    }
  });
});
