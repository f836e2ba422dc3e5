// What a build knows of the environment it ran in: the variables the site read, with their values, or (when
// the build could not see which it read: an env object handed in by a caller) a hash of the whole
// environment. The up-to-date record (upToDate.ts) and the page record (pageRecord.ts) keep one each.
import { sha1 } from './stableText.ts';
import { envView } from '../core/env.ts';

export type EnvRecord = Record<string, string | null> | string;

/** A hash of every variable but the shell's own bookkeeping. */
export const wholeEnv = (env: NodeJS.ProcessEnv): string => sha1(Object.keys(env).filter((n) => n !== '_' && n !== 'OLDPWD').sort().map((n) => `${n}=${env[n]}`).join('\n'));

/** The time zone dates are shown in (from TZ, else the machine's own setting): kept under this name, which no
 *  variable has, as if the site read it. */
const ZONE = '@timeZone';
const zone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';

/** The value a record keeps for `name` in `env` (the time zone's, for its own name). */
export const envValue = (env: NodeJS.ProcessEnv, name: string): string | null => (name === ZONE ? zone() : env[name] ?? null);

/** Whether a build that recorded `rec` would have seen the same values in `env`. */
export const envSame = (rec: EnvRecord, env: NodeJS.ProcessEnv): boolean =>
  typeof rec === 'string' ? rec === wholeEnv(env) : Object.entries(rec).every(([k, v]) => envValue(env, k) === v);

/** The record of a build that read `reads` (null: unknown), over what earlier records it reused said. */
export function envRecordOf(env: NodeJS.ProcessEnv, reads: Set<string> | null, reused: EnvRecord[] = []): EnvRecord {
  if (!reads || reused.some((r) => typeof r === 'string')) return wholeEnv(env);
  // (TZ always: a date a template or z.coerce.date() reads depends on it, though no code reads it from the environment)
  const names = new Set([...reads, 'TZ']);
  for (const r of reused) for (const n of Object.keys(r as Record<string, string | null>)) names.add(n);
  names.delete(ZONE);
  return Object.fromEntries([...names, ZONE].map((n) => [n, envValue(env, n)]).sort(([a], [b]) => (a! < b! ? -1 : 1)));
}

/** `env` as a view that records which variables are read; `reads()` is null once the whole of it was listed. */
export function trackEnv(env: NodeJS.ProcessEnv) {
  const read = new Set<string>();
  let all = false;
  // Node copies every variable (each one's descriptor and value) right after listing them to start a program:
  // those are no reads. Noted as reads, every variable and its value went into the records, and one that
  // differs from run to run (a terminal's, a benchmark's) made the next build stage a whole output.
  let spawning = false;
  const fromSpawn = () => /normalizeSpawnArguments/.test(new Error().stack ?? '');
  const note = (k: string | symbol) => { if (typeof k === 'string' && !(spawning && fromSpawn())) read.add(k); };
  const proxy = envView(env, new Proxy(env, {
    get(t, k, r) { note(k); return Reflect.get(t, k, r); },
    has(t, k) { note(k); return Reflect.has(t, k); },
    getOwnPropertyDescriptor(t, k) { note(k); return Reflect.getOwnPropertyDescriptor(t, k); },
    // Listed: every variable may matter (a worker thread's copy runs site code unseen), except when Node
    // lists it to start a program (esbuild's service; a program the site runs is taken as not reading it).
    // (Node's copy is synchronous: it is over by the next microtask)
    ownKeys(t) {
      if (!fromSpawn()) all = true;
      else if (!spawning) { spawning = true; queueMicrotask(() => { spawning = false; }); }
      return Reflect.ownKeys(t);
    },
  }));
  return { proxy, reads: (): Set<string> | null => (all ? null : read) };
}
