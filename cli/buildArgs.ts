// The arguments of a plain `sitegen build`, read without commander: a build is the command run most, and
// loading commander (and the definitions of every other command) was ~10 ms of its start. Only what is
// certain is read here; anything else (help, an unknown or combined option, a value that looks like an
// option, a missing value) is left to commander (cli/program.ts), which parses `build` exactly as before:
// the flags here are the ones it gives (tests/unit/up-to-date-fast.test.ts compares them).
import path from 'node:path';
import { runBuild, type BuildFlags } from './commands.ts';
import { loadEnvFile } from './env.ts';

/** `sitegen build` with its flags, however they were read: the site's .env loaded, then the build; its exit code. */
export async function buildCommand(flags: BuildFlags): Promise<number> {
  loadEnvFile(path.resolve(flags.root ?? '.'));
  return (await runBuild(flags)).code;
}

/** The flags of `build` as commander gives them, defaults included. */
export type PlainBuildFlags = BuildFlags & { root: string; out: string; cache: boolean };

const VALUED: Record<string, 'root' | 'out' | 'siteUrl'> = { '-r': 'root', '--root': 'root', '-o': 'out', '--out': 'out', '--site-url': 'siteUrl' };
const SWITCHES: Record<string, (f: PlainBuildFlags) => void> = {
  '-q': (f) => { f.quiet = true; },
  '--quiet': (f) => { f.quiet = true; },
  '--json': (f) => { f.json = true; },
  '--drafts': (f) => { f.drafts = true; },
  '--no-cache': (f) => { f.cache = false; },
};

/** `args` (after the program's name) when they are `build` and options of its own, each written out; else null. */
export function plainBuildFlags(args: readonly string[]): PlainBuildFlags | null {
  if (args[0] !== 'build') return null;
  const flags: PlainBuildFlags = { root: '.', out: 'dist', cache: true };
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const key = Object.hasOwn(VALUED, name) ? VALUED[name] : undefined;
    if (key) {
      const value = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (value === undefined || value === '' || value.startsWith('-')) return null;
      flags[key] = value;
    } else if (eq < 0 && Object.hasOwn(SWITCHES, a)) {
      SWITCHES[a]!(flags);
    } else {
      return null;
    }
  }
  return flags;
}
