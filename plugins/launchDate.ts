// The launch date, written once as `launch` in content/site.yaml ("September 2025"). Copy names it through
// site.yaml's `launchWording` (templates/lib/launch.ts), which switches to date-free wordings once the month
// is over; the date itself is then stale, so every build says so: a plugin whose `config` hook returns a
// warning located at the `launch:` line (it does not stop the build).
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { Message, PluginContext, SitegenPlugin } from 'sitegen-islands';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SITE_FILE = 'content/site.yaml';

/** The first moment after the launch month ("September 2025" → 2025-10-01T00:00Z), or null if unreadable. */
export function launchEnd(launch: string): Date | null {
  const m = /^([A-Z][a-z]+) (\d{4})$/.exec(launch.trim());
  const month = m ? MONTHS.indexOf(m[1]) : -1;
  return m && month >= 0 ? new Date(Date.UTC(Number(m[2]), month + 1, 1)) : null;
}

/** The warning text when the stated launch has passed at `now`; nothing while it is still ahead. */
export function launchWarning(launch: string, now: Date = new Date()): string | null {
  const end = launchEnd(launch);
  if (!end || now < end) return null;
  return `"${launch}" has passed; pages use the date-free launch wordings until it is updated`;
}

/** The warning as a located Message for the site at `root`, or none (an unreadable site.yaml is content validation's to report). */
export function launchMessages(root: string, now: Date = new Date()): Message[] {
  let text: string;
  try { text = fs.readFileSync(path.join(root, SITE_FILE), 'utf8'); } catch { return []; }
  const doc = parseDocument(text);
  const node = doc.get('launch', true) as { value?: unknown; range?: [number, number, number] } | undefined;
  const launch = typeof node?.value === 'string' ? node.value : null;
  const warning = launch ? launchWarning(launch, now) : null;
  if (!warning) return [];
  const offset = node?.range?.[0] ?? 0;
  const before = text.slice(0, offset).split('\n');
  const line = before.length;
  return [{
    id: 'LaunchDatePassed', text: warning, field: 'launch', notes: [],
    location: { file: SITE_FILE, line, column: before[before.length - 1].length + 1, lineText: text.split('\n')[line - 1] ?? '' },
    hint: 'Set `launch` in content/site.yaml to the next planned month, or keep the date-free wordings (`launchWording`).',
  }];
}

export function launchDate(now?: Date): SitegenPlugin {
  return { name: 'launch-date', config: (ctx: PluginContext) => ({ warnings: launchMessages(ctx.root, now) }) };
}
