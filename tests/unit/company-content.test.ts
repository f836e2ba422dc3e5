// The company pages' content and schemas: the real files validate, the schemas refuse what the spec forbids
// (not seven FAQ topics, a doubled topic, a description out of 50-160 characters), and {tokens} are filled
// from site.yaml or reported.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import matter from 'gray-matter';
import type { ZodType } from 'zod';
import {
  AcceleratorsSchema, CareersSchema, FaqsSchema, InvestorsSchema, ManifestoSchema, SupportSchema, VentureStudiosSchema, FAQ_TOPICS,
} from '../../templates/schemas/company.ts';
import { SiteSchema } from '../../templates/schemas/site.ts';
import { factsOf, fillFacts, unknownTokens } from '../../templates/pages/company/facts.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const read = (rel: string) => fs.readFileSync(path.join(REPO, 'content', rel), 'utf8');
const site = SiteSchema.parse(parse(read('site.yaml')));
const facts = factsOf(site);

const FILES: [string, ZodType][] = [
  ['pages/faqs.yaml', FaqsSchema],
  ['pages/support.yaml', SupportSchema],
  ['pages/careers.yaml', CareersSchema],
  ['pages/investors.yaml', InvestorsSchema],
  ['pages/accelerators.yaml', AcceleratorsSchema],
  ['pages/venture-studios.yaml', VentureStudiosSchema],
];

describe('company content files', () => {
  it.each(FILES)('%s validates and uses only known facts', (file, schema) => {
    const data = schema.parse(parse(read(file)));
    expect(unknownTokens(data, facts)).toEqual([]);
  });

  it('manifesto.md: front matter validates; the body has no h1, a blockquote, and 500-800 words', () => {
    const { data, content } = matter(read('pages/manifesto.md'));
    ManifestoSchema.parse(data);
    expect(content).not.toMatch(/^# /m);
    expect(content).toMatch(/^## /m);
    expect(content).toMatch(/^> /m);
    const words = content.split(/\s+/).filter(Boolean).length;
    expect(words).toBeGreaterThanOrEqual(500);
    expect(words).toBeLessThanOrEqual(800);
  });
});

describe('company schemas', () => {
  const faqs = parse(read('pages/faqs.yaml'));

  it('needs exactly the seven FAQ topics, each once', () => {
    expect(FaqsSchema.safeParse(faqs).success).toBe(true);
    expect(FaqsSchema.safeParse({ ...faqs, questions: faqs.questions.slice(0, 6) }).success).toBe(false);
    const doubled = faqs.questions.map((q: { id: string }, i: number) => (i === 1 ? { ...q, id: FAQ_TOPICS[0] } : q));
    const r = FaqsSchema.safeParse({ ...faqs, questions: doubled });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['questions', 1, 'id']);
  });

  it('keeps meta descriptions between 50 and 160 characters', () => {
    expect(FaqsSchema.safeParse({ ...faqs, description: 'Too short.' }).success).toBe(false);
    expect(FaqsSchema.safeParse({ ...faqs, description: 'x'.repeat(161) }).success).toBe(false);
  });
});

describe('facts in copy', () => {
  it('fills known tokens from site.yaml and leaves the rest for validate() to report', () => {
    const filled = fillFacts({ a: ['Launch: {launchFact}', 'From {premiumPrice}'], b: '{nope}' }, facts);
    expect(filled).toEqual({ a: [`Launch: ${facts.launchFact}`, `From ${site.premiumPrice}`], b: '{nope}' });
    // The bare date is not a fact copy may name: a sentence naming the launch uses a launch wording.
    expect(unknownTokens({ a: ['ok {launchFact}'], b: { c: 'bad {launch}' } }, facts)).toEqual([{ path: ['b', 'c'], token: '{launch}' }]);
  });
});
