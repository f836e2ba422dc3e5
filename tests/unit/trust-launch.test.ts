// Issue 29: the launch wordings of site.yaml. Each sentence that names the launch says the date while the
// launch month is ahead and its date-free wording once it is over.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SiteSchema } from '../../templates/schemas/site.ts';
import { launchPassed, launchTokens } from '../../templates/lib/launch.ts';

const site = SiteSchema.parse(parse(fs.readFileSync(new URL('../../content/site.yaml', import.meta.url), 'utf8')));

describe('launch wordings', () => {
  it('name the date while the launch month is ahead (September 2025 in August 2025)', () => {
    const t = launchTokens({ ...site, launch: 'September 2025' }, new Date('2025-08-15T00:00:00Z'));
    expect(t.launchNote).toBe('Public launch September 2025.');
    expect(t.launchStatLabel).toBe('2025 Launch');
    expect(launchPassed('September 2025', new Date('2025-09-30T23:59:59Z'))).toBe(false);
  });

  it('use the date-free wording from October 2025 on, for every sentence', () => {
    const t = launchTokens(site, new Date('2026-11-26T00:00:00Z'));
    for (const [key, w] of Object.entries(site.launchWording)) expect(t[key], key).toBe(w.passed);
    expect(Object.values(t).join(' ')).not.toMatch(/2025|September/);
  });

  it('refuses a passed wording that names a year or a token', () => {
    const bad = (passed: string) => SiteSchema.safeParse({ ...site, launchWording: { launchNote: { upcoming: 'x {launch}', passed } } }).success;
    expect(bad('Opening in 2026.')).toBe(false);
    expect(bad('Opening {launch}.')).toBe(false);
    expect(bad('Opening in waves.')).toBe(true);
  });
});
