// The launch date's build warning: silent while the stated month is ahead or current, a warning naming
// site.yaml once it has passed (the copy announces the launch as upcoming).
import { describe, expect, it } from 'vitest';
import { launchEnd, launchNotices, launchWarning } from '../../templates/routes/launch.ts';

describe('launch date warning', () => {
  it('reads "Month YYYY" as the end of that month', () => {
    expect(launchEnd('September 2025')?.toISOString()).toBe('2025-10-01T00:00:00.000Z');
    expect(launchEnd('December 2025')?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(launchEnd('Sept 2025')).toBeNull();
  });

  it('warns only once the launch month is over', () => {
    expect(launchWarning('September 2025', new Date('2025-08-31T12:00:00Z'))).toBeNull();
    expect(launchWarning('September 2025', new Date('2025-09-30T23:59:59Z'))).toBeNull();
    expect(launchWarning('September 2025', new Date('2025-10-01T00:00:00Z'))).toMatch(/^warning: content\/site\.yaml: launch "September 2025" has passed/);
  });

  it("the config's notices carry the warning for the site's own launch date", () => {
    expect(launchNotices(new Date('2000-01-01T00:00:00Z'))).toEqual([]);
    expect(launchNotices(new Date('2100-01-01T00:00:00Z'))).toEqual([expect.stringContaining('has passed')]);
  });
});
