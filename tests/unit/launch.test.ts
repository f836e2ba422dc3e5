// The launch date's build warning: silent while the stated month is ahead or current, a warning located at
// the `launch:` line of site.yaml once it has passed (pages then use the date-free launch wordings).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchEnd, launchMessages, launchWarning } from '../../plugins/launchDate.ts';
import { REPO } from '../helpers/cli.ts';
import { siteAt } from '../helpers/site.ts';

describe('launch date warning', () => {
  it('reads "Month YYYY" as the end of that month', () => {
    expect(launchEnd('September 2025')?.toISOString()).toBe('2025-10-01T00:00:00.000Z');
    expect(launchEnd('December 2025')?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(launchEnd('Sept 2025')).toBeNull();
  });

  it('warns only once the launch month is over', () => {
    expect(launchWarning('September 2025', new Date('2025-08-31T12:00:00Z'))).toBeNull();
    expect(launchWarning('September 2025', new Date('2025-09-30T23:59:59Z'))).toBeNull();
    expect(launchWarning('September 2025', new Date('2025-10-01T00:00:00Z'))).toMatch(/^"September 2025" has passed/);
  });

  it("locates the warning at the site's own launch line", () => {
    expect(launchMessages(REPO, new Date('2000-01-01T00:00:00Z'))).toEqual([]);
    const [m] = launchMessages(REPO, new Date('2100-01-01T00:00:00Z'));
    const lines = fs.readFileSync(path.join(REPO, 'content/site.yaml'), 'utf8').split('\n');
    expect(m.location?.file).toBe('content/site.yaml');
    expect(lines[m.location!.line - 1]).toMatch(/^launch:/);
    expect(m.location!.lineText).toBe(lines[m.location!.line - 1]);
  });

  it('sitegen check prints it as a warning with file:line and still succeeds', async () => {
    // Without the type check: it is the whole repository's tsc run (half a minute), which `npm test` already
    // runs as its own part; this asserts what the warning does to a check.
    const r = await siteAt(REPO).check({ json: true, typecheck: false });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // site.yaml states September 2025, which has passed: the warning is due, and the check must not fail for it.
    expect(out.warnings.map((w: any) => w.text)).toEqual([expect.stringContaining('"September 2025" has passed')]);
    expect(out.warnings[0].location.file).toBe('content/site.yaml');
  });
});
