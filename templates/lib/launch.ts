// How copy names the launch. site.yaml writes the date once (`launch`) and, for each sentence that names it,
// two wordings under `launchWording`: `upcoming` (may say {launch} or {launchYear}) while the launch month is
// ahead, and `passed` (date-free) once it is over. Copy refers to a wording by its key as a token
// ({launchNote}); nothing in the copy names the date itself, so a past date is never announced as upcoming.
// The build's warning (plugins/launchDate.ts) still says the date has passed.
import { launchEnd } from '../../plugins/launchDate.ts';
import type { Site } from '../schemas/site.ts';

/** True once the launch month is over at `now` (an unreadable date counts as not passed). */
export function launchPassed(launch: string, now: Date = new Date()): boolean {
  const end = launchEnd(launch);
  return end !== null && now >= end;
}

/** The launch tokens copy may use, each filled with the wording that is true at `now`. */
export function launchTokens(site: Pick<Site, 'launch' | 'launchWording'>, now: Date = new Date()): Record<string, string> {
  const passed = launchPassed(site.launch, now);
  const year = site.launch.slice(-4);
  const fill = (s: string) => s.replaceAll('{launch}', site.launch).replaceAll('{launchYear}', year);
  return Object.fromEntries(Object.entries(site.launchWording).map(([key, w]) => [key, passed ? w.passed : fill(w.upcoming)]));
}
