// The launch date, written once as `launch` in content/site.yaml ("September 2025"). Copy names it through
// site.yaml's `launchWording` (templates/lib/launch.ts), which switches to date-free wordings once the month
// is over; the date itself is then stale, so every build says so: a plugin whose `config` hook returns a
// warning located at the `launch:` line (it does not stop the build).
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument, type Document } from 'yaml';
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
  const { launch, offset } = launchAt(text);
  const warning = launch ? launchWarning(launch, now) : null;
  if (!warning) return [];
  const before = text.slice(0, offset).split('\n');
  const line = before.length;
  return [{
    id: 'LaunchDatePassed', text: warning, field: 'launch', notes: [],
    location: { file: SITE_FILE, line, column: before[before.length - 1].length + 1, lineText: text.split('\n')[line - 1] ?? '' },
    hint: 'Set `launch` in content/site.yaml to the next planned month, or keep the date-free wordings (`launchWording`).',
  }];
}

/** The `launch` value of a YAML text as written (null when it is not a string), and where the value starts. */
export function launchAt(text: string): { launch: string | null; offset: number } {
  return launchLine(text) ?? launchIn(parseDocument(text), 0);
}

function launchIn(doc: Document, base: number): { launch: string | null; offset: number } {
  const node = doc.get('launch', true) as { value?: unknown; range?: [number, number, number] } | undefined;
  return { launch: typeof node?.value === 'string' ? node.value : null, offset: base + (node?.range?.[0] ?? 0) };
}

/**
 * The file's one `launch: <value>` line of its top-level map, read alone: parsing the whole file was most
 * of this hook's time (dev runs it on every template edit). Null when the line may not stand for the file:
 * no such line or two, a second document or a directive, a value that goes on over the next lines, a line
 * that is not valid alone.
 */
function launchLine(text: string): { launch: string | null; offset: number } | null {
  const lines = text.split('\n');
  let at = -1, start = 0, lineStart = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^(?:---|\.\.\.|%)/.test(l)) return null;
    if (/^launch:(?:[ \t]|$)/.test(l)) {
      if (at >= 0) return null;
      at = i;
      lineStart = start;
    }
    start += l.length + 1;
  }
  if (at < 0 || !/^launch:[ \t]*[^ \t#]/.test(lines[at])) return null;
  // A plain value goes on over the lines below it that are indented (blank ones between them too).
  const next = lines.slice(at + 1).find((l) => l.trim() !== '');
  if (next !== undefined && /^[ \t]/.test(next)) return null;
  const doc = parseDocument(lines[at].replace(/\r$/, ''));
  if (doc.errors.length) return null;
  const r = launchIn(doc, lineStart);
  return r.launch === null ? null : r;
}

export function launchDate(now?: Date): SitegenPlugin {
  return { name: 'launch-date', config: (ctx: PluginContext) => ({ warnings: launchMessages(ctx.root, now) }) };
}
