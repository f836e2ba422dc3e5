// {tokens} follow one rule in every page group, in YAML and in Markdown (templates/lib/tokens.ts): a token
// no fact stands behind is a located error, never published as written, and a token in Markdown is text as
// typed ({__proto__} is not bold "proto"). Checked in process on a copy of the real site.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, checkSite } from '../../src/pipeline/build.ts';
import { formatMessage } from '../../src/core/errors.ts';
import { compileMarkdown, prepareMarkdown } from '../../src/markdown/compile.ts';
import { fillTokensHtml, tokenMarkdown } from '../../templates/lib/tokens.ts';
import { REPO } from '../helpers/cli.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const work = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-tokens-'));
const real = path.join(work, 'real');
beforeAll(() => {
  fs.mkdirSync(real);
  for (const f of ['content', 'templates', 'static', 'plugins', 'supabase', 'sitegen.config.ts', 'package.json', 'tsconfig.json']) {
    if (fs.existsSync(path.join(REPO, f))) fs.cpSync(path.join(REPO, f), path.join(real, f), { recursive: true });
  }
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function edit(rel: string, from: string | RegExp, to: string): () => void {
  const file = path.join(real, rel);
  const text = fs.readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  expect(next).not.toBe(text);
  fs.writeFileSync(file, next);
  return () => fs.writeFileSync(file, text);
}

describe('one rule for {tokens}', () => {
  it.each([
    ['{__proto__} in the manifesto\'s Markdown body', 'content/pages/manifesto.md', /not do \{launchOpens\}\./, 'not do {launchOpens} {__proto__}.', /^content\/pages\/manifesto\.md:68:24 Unknown fact \{__proto__\} in the Markdown body/],
    ['{nope} in content/home.yaml', 'content/home.yaml', /text: "\{launchCta\}"/, 'text: "{launchCta} {nope}"', /^content\/home\.yaml:44:\d+ cta\.text: Unknown fact \{nope\}/],
    ['{__proto__} in content/home.yaml', 'content/home.yaml', /^title: Find Your Co-Founder/m, 'title: Find Your {__proto__} Co-Founder', /^content\/home\.yaml:1:8 title: Unknown fact \{__proto__\}/],
    ['{constructor} in an area', 'content/areas/online.yaml', /^title: (.*)$/m, 'title: "$1 {constructor}"', /^content\/areas\/online\.yaml:\d+:8 title: Unknown fact \{constructor\}/],
    ['{nope} in the footer blurb (site.yaml)', 'content/site.yaml', /matched on what matters\. \{launchNote\}/, 'matched on what matters. {launchNote} {nope}', /^content\/site\.yaml:\d+:\d+ footer\.blurb: Unknown fact \{nope\}/],
  ])('%s is a located unknown-token error', async (_name, file, from, to, expected) => {
    const restore = edit(file, from, to);
    try {
      const r = await checkSite({ root: real });
      expect(r.errors.map(formatMessage)).toEqual([expect.stringMatching(expected)]);
    } finally {
      restore();
    }
  });

  it('known facts fill home.yaml and Markdown alike; Markdown around a token still renders', async () => {
    const restoreHome = edit('content/home.yaml', /text: "\{launchCta\}"/, 'text: "get early access from {company}. {launchCta}"');
    const restoreBody = edit('content/pages/manifesto.md', /not do \{launchOpens\}\./, 'not do **{launchOpens}** with __{company}__.');
    try {
      const r = await build({ root: real });
      expect(r.errors.map(formatMessage)).toEqual([]);
      const site = fs.readFileSync(path.join(real, 'content/site.yaml'), 'utf8');
      const company = /^company: (.*)$/m.exec(site)![1].replace(/^"|"$/g, '').replace(/&/g, '&amp;');
      const home = fs.readFileSync(path.join(real, 'dist/index.html'), 'utf8');
      expect(home).toContain(`get early access from ${company}. `);
      const manifesto = fs.readFileSync(path.join(real, 'dist/manifesto/index.html'), 'utf8');
      expect(manifesto).toMatch(new RegExp(`not do <strong>[^<{]+</strong> with <strong>${company.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</strong>\\.`));
      expect(home).not.toMatch(/\{[A-Za-z_$][\w$]*\}/);
      expect(manifesto).not.toMatch(/\{[A-Za-z_$][\w$]*\}/);
    } finally {
      restoreBody();
      restoreHome();
    }
  });

  it('in Markdown a token is one piece of text: {__proto__} is not emphasis, and a value goes in escaped', async () => {
    const ext = [tokenMarkdown];
    await prepareMarkdown(ext);
    const r = compileMarkdown('A {__proto__} and {a_b_c} but __bold__ and {not a token}.\n', ext);
    expect(r.html).toBe('<p>A {__proto__} and {a_b_c} but <strong>bold</strong> and {not a token}.</p>\n');
    expect(fillTokensHtml(r.html!, { a_b_c: '<b>&' })).toContain('and &lt;b&gt;&amp; but');
  });
});
