// typecheckTsc: the type check of a site whose `typescript` package has no compiler API to call in process
// (TypeScript 7, whose package is the native compiler and a version number): its own `tsc` is run, as the
// site's `npm run typecheck` would, with the same tsconfig.json and the check's state kept beside the
// in-process one's, and its report read back into located messages of the usual shape.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Location, Message } from '../core/types.ts';
import { fileLocation, message, NOT_DEFINED } from '../core/errors.ts';

/** The site's `tsc` (a Node script), or null when its package names none. */
function siteTsc(root: string): string | null {
  try {
    const require = createRequire(path.join(root, 'package.json'));
    const pkgFile = require.resolve('typescript/package.json');
    const bin = (JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { bin?: string | Record<string, string> }).bin;
    const rel = typeof bin === 'string' ? bin : bin?.tsc;
    return rel ? path.join(path.dirname(pkgFile), rel) : null;
  } catch {
    return null;
  }
}

/** A line of TypeScript's explanation, clipped for a terminal. */
export const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 199)}…` : s);

/**
 * A type error from TypeScript's explanation, a chain from the outer type down to the property at fault: the
 * message says the last link (what to fix), the notes the links above it, clipped. Both checks (in process
 * and through tsc) make their messages here.
 */
export function chainMessage(chain: string[], code: string, where: Location | null): Message {
  const m = message('TypeError', `${clip(chain[chain.length - 1] ?? '')} (${code})`, where);
  for (const link of chain.slice(0, -1).slice(0, 3)) m.notes.push({ text: clip(link), location: null });
  if (chain.length > 4) m.notes.push({ text: `… ${chain.length - 4} more lines of explanation (tsc --noEmit prints them all)`, location: null });
  return m;
}

/**
 * One message per error of a `tsc --pretty false` report: `file(line,col): error TSnnnn: text`, then the
 * deeper links of its explanation on lines indented by two spaces (the message says the last link, the
 * notes the ones above it, as for the in-process check). Read by position, not by a pattern (linear).
 */
export function tscMessages(root: string, report: string): Message[] {
  const out: Message[] = [];
  const lineOf = new Map<string, string[]>();
  const textAt = (file: string, line: number) => {
    if (!lineOf.has(file)) {
      let lines: string[] = [];
      try { lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n'); } catch { /* gone: no code frame */ }
      lineOf.set(file, lines);
    }
    return lineOf.get(file)![line - 1]?.replace(/\r$/, '');
  };
  let chain: string[] = [];
  let code = '';
  let where: Location | null = null;
  const flush = () => {
    if (!chain.length) return;
    out.push(chainMessage(chain, code, where));
    chain = [];
  };
  for (const raw of report.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) continue;
    if (line.startsWith(' ') && chain.length) { chain.push(line.trim()); continue; }
    // `file(line,col): error TSnnnn: text`, or `error TSnnnn: text` for a problem of no file (the config's).
    const at = line.startsWith('error TS') ? 0 : line.indexOf(': error TS') + 2;
    if (at < 2 && at !== 0) continue; // tsc's summary lines ("Found 2 errors…")
    flush();
    const colon = line.indexOf(':', at);
    code = line.slice(at + 'error '.length, colon);
    const text = line.slice(colon + 1).trim();
    where = null;
    const mark = at - 2;
    const open = line.lastIndexOf('(', mark);
    if (at > 0 && open > 0 && line[mark - 1] === ')') {
      const [l, c] = line.slice(open + 1, mark - 1).split(',').map(Number);
      const named = line.slice(0, open);
      const file = (path.isAbsolute(named) ? path.relative(root, named) : named).split(path.sep).join('/');
      if (l && c) where = fileLocation(file, l, c, textAt(file, l) ?? '');
    }
    chain = [text];
  }
  flush();
  return out;
}

const TSC_TIMEOUT_MS = 600_000;

/** Runs the site's `tsc --noEmit` on `configFile`; null when the site has no `tsc` (or its file) to run. */
export function tscCheck(root: string, configFile: string, buildInfo: string | null): { errors: Message[]; crashed: string | null } | null {
  const tsc = siteTsc(root);
  if (!tsc || !fs.existsSync(tsc)) return null;
  const args = [tsc, '--noEmit', '--pretty', 'false', '-p', configFile];
  if (buildInfo) { fs.mkdirSync(path.dirname(buildInfo), { recursive: true }); args.push('--incremental', '--tsBuildInfoFile', buildInfo); }
  // A bound, so a tsc that hangs cannot hang `sitegen check` (a whole check of a large site takes seconds).
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: TSC_TIMEOUT_MS, killSignal: 'SIGKILL' });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') return { errors: [], crashed: `tsc did not finish in ${TSC_TIMEOUT_MS / 1000} s` };
  const errors = tscMessages(root, `${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  // Exit 1 or 2 with errors is the report; any other end without one is tsc failing to run.
  const crashed = errors.length || r.status === 0 ? null : `tsc exited with ${r.status ?? r.signal}${r.error ? ` (${r.error.message})` : ''}: ${(r.stderr || r.stdout || '').trim().split('\n')[0] ?? ''}`;
  return { errors, crashed };
}

// TypeScript's "Object literal may only specify known properties, and 'x' does not exist in type …" (TS2353,
// TS2561 "…but 'x' does not exist… Did you mean to write 'y'?"): the key; linear.
const UNKNOWN_PROPERTY = /^Object literal may only specify known properties, (?:and|but) '([^']{1,100})' does not exist/;
// TypeScript's "Cannot find name 'x'." (TS2304, TS2552 with a did-you-mean): the name, then fixed text; linear.
const CANNOT_FIND = /^Cannot find name '([A-Za-z_$][\w$]*)'/;

/** The type errors a check reports beside its other errors, each mistake said once: "Cannot find name 'x'" at
 *  a line where a page failed to render with "x is not defined" is that error again (an import left out), and
 *  a type error at the line of a config key sitegen refused (`site.bsae`: TS2353, "may only specify known
 *  properties") is that key again. */
export function besideRenderErrors(typeErrors: Message[], others: readonly Message[]): Message[] {
  const failed = new Set<string>(), refused = new Map<string, string[]>(); // (the config errors' texts, by file:line)
  const lineOf = (m: Message) => `${m.location!.file}:${m.location!.line}`;
  for (const m of others) {
    const name = m.id === 'RenderError' && m.location && m.render ? NOT_DEFINED.exec(m.render.thrown)?.[1] : undefined;
    if (name) failed.add(`${lineOf(m)}:${name}`);
    if (m.id === 'ConfigError' && m.location) refused.set(lineOf(m), [...refused.get(lineOf(m)) ?? [], m.text]);
  }
  if (!failed.size && !refused.size) return typeErrors;
  return typeErrors.filter((m) => {
    // (only tsc's "may only specify known properties, and 'key' does not exist" for the key sitegen named)
    const key = m.location ? UNKNOWN_PROPERTY.exec(m.text)?.[1] : undefined;
    if (key && refused.get(lineOf(m))?.some((t) => t.includes(`"${key}"`) || t.includes(`.${key}"`))) return false;
    const name = m.location ? CANNOT_FIND.exec(m.text)?.[1] : undefined;
    return !(name && failed.has(`${lineOf(m)}:${name}`));
  });
}
