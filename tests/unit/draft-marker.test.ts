// A collection's draft marker (`draft: 'draft'`) must name a field whose true marks a draft: one the schema does
// not have, or of another type, would publish every draft without a word. Every way zod writes a boolean field
// passes; a loose object (which passes unknown fields through) is not refused for a field it lacks.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { checkConfig } from '../../src/site/configSchema.ts';

const config = (schema: unknown, draft = 'draft') => ({ site: { title: 'T', url: 'https://t.example' }, collections: { posts: { pattern: 'posts/*.md', schema, draft } }, routes: () => [] });
const problem = (schema: unknown, draft?: string): string | null => {
  try { checkConfig(config(schema, draft)); return null; } catch (e) { return (e as { issues: { message: string }[] }).issues.map((i) => i.message).join('; '); }
};

describe('a draft marker', () => {
  it('takes a boolean field however zod writes it', () => {
    expect(problem(z.strictObject({ draft: z.boolean() }))).toBeNull();
    expect(problem(z.strictObject({ draft: z.boolean().optional() }))).toBeNull();
    expect(problem(z.strictObject({ draft: z.boolean().default(false) }))).toBeNull();
    expect(problem(z.object({ draft: z.boolean().optional() }).required({ draft: true }))).toBeNull();
    expect(problem(z.strictObject({ draft: z.literal(true).optional() }))).toBeNull();
    expect(problem(z.strictObject({ t: z.string() }).extend({ draft: z.boolean() }))).toBeNull();
    expect(problem(z.strictObject({ draft: z.stringbool() }))).toBeNull();
    expect(problem(z.looseObject({ title: z.string() }))).toBeNull();
    // zod 3's schemas (a site may bring that copy): the same answers.
    expect(problem(z3.object({ title: z3.string() }).passthrough())).toBeNull();
    expect(problem(z3.object({ title: z3.string() }).catchall(z3.any()))).toBeNull();
    expect(problem(z3.object({ draft: z3.boolean().default(false) }))).toBeNull();
    expect(problem(z3.object({ title: z3.string() }), 'title')).toMatch(/a string field/);
  });
  it('refuses a field the schema lacks, with a did-you-mean, and one of another type', () => {
    expect(problem(z.strictObject({ title: z.string(), draft: z.boolean() }), 'drat')).toMatch(/^names "drat", which is not a field of the collection's schema \(did you mean draft\?\), so no entry would be a draft/);
    expect(problem(z.strictObject({ title: z.string() }), 'title')).toMatch(/^names "title", a string field: a draft is marked by true/);
  });
});
