// The launch date, written once as `launch` in content/site.yaml ("September 2025") and named as {launch}
// in copy. The copy announces it as upcoming, so once the month is over the build says so (a config notice):
// the site would otherwise keep promising a date that has passed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SITE_FILE = 'content/site.yaml';

/** The first moment after the launch month ("September 2025" → 2025-10-01T00:00Z), or null if unreadable. */
export function launchEnd(launch: string): Date | null {
  const m = /^([A-Z][a-z]+) (\d{4})$/.exec(launch.trim());
  const month = m ? MONTHS.indexOf(m[1]) : -1;
  return m && month >= 0 ? new Date(Date.UTC(Number(m[2]), month + 1, 1)) : null;
}

/** A warning line when the stated launch has passed at `now`; nothing while it is still ahead. */
export function launchWarning(launch: string, now: Date = new Date()): string | null {
  const end = launchEnd(launch);
  if (!end || now < end) return null;
  return `warning: ${SITE_FILE}: launch "${launch}" has passed, but the copy still announces it as upcoming; update \`launch\` (or the copy that names {launch})`;
}

/** The site root: the nearest folder above this module (or the engine's compiled copy of it) with the site file. */
function siteRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'sitegen.config.ts')) && fs.existsSync(path.join(dir, SITE_FILE))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/** For the config's `notices`: reads the launch straight from site.yaml (content is not loaded yet then). */
export function launchNotices(now: Date = new Date()): string[] {
  try {
    const launch = parseYaml(fs.readFileSync(path.join(siteRoot(), SITE_FILE), 'utf8'))?.launch;
    const warning = typeof launch === 'string' ? launchWarning(launch, now) : null;
    return warning ? [warning] : [];
  } catch {
    return []; // an unreadable site.yaml is reported by content validation itself
  }
}
