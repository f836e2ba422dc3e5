// `sitegen build` and `sitegen check` as functions of their flags and an output sink: cli/main.ts runs them
// with the terminal, and tests run the very same code in process (tests/helpers/site.ts) to read the exact
// text a user would see without starting a process.
import fs from 'node:fs';
import path from 'node:path';
import type { BuildResult } from '../src/core/types.ts';
import { printMessages, summary, jsonResult, dim, red, yellow, count } from './report.ts';
import { engineSettingsFrom } from './options.ts';
import { progressLine } from './progress.ts';

export interface Io {
  /** Writes a line (or lines) to standard output; the newline is added by the caller. */
  out(s: string): void;
  /** Writes text to standard error as is. */
  err(s: string): void;
  /** The environment the command reads (process.env for the CLI). */
  env: NodeJS.ProcessEnv;
  /** The folder paths are printed relative to (process.cwd() for the CLI). */
  cwd: string;
  /** Standard output is a terminal: a progress line is redrawn in place there (cli/progress.ts). */
  live?: boolean;
  /** Until the returned function is called, `before` runs ahead of every write through process.stdout or
   *  process.stderr that does not come from out() and err(): what a template or a plugin prints (console.log)
   *  while a progress line is drawn then starts on a line of its own, and the progress line is drawn again below
   *  it. (A child process that writes to the terminal itself is not seen.) */
  others?(before: () => void): () => void;
}

export const terminal = (): Io => {
  const streams = [process.stdout, process.stderr];
  const own = streams.map((s) => s.write);
  return {
    out: (s) => own[0].call(process.stdout, s),
    err: (s) => own[1].call(process.stderr, s),
    env: process.env,
    cwd: process.cwd(),
    live: !!process.stdout.isTTY,
    others(before) {
      const was = streams.map((s) => s.write);
      const mine = was.map((w) => function (this: NodeJS.WriteStream, ...args: unknown[]) { before(); return (w as (...a: unknown[]) => boolean).apply(this, args); } as typeof w);
      streams.forEach((s, i) => { s.write = mine[i]; });
      // (a write another library put over ours meanwhile stays: ours then only runs `before`, which does nothing once the line is gone)
      return () => streams.forEach((s, i) => { if (s.write === mine[i]) s.write = was[i]; });
    },
  };
};

export interface BuildFlags { root?: string; out?: string; siteUrl?: string; quiet?: boolean; json?: boolean; cache?: boolean; drafts?: boolean }

export interface CommandRun { code: number; result: BuildResult }

export async function runBuild(flags: BuildFlags, io: Io = terminal()): Promise<CommandRun> {
  const root = path.resolve(io.cwd, flags.root ?? '.');
  const log = (s: string) => { if (!flags.quiet && !flags.json) io.out(s + '\n'); };
  log(dim(`sitegen build ${root}`));
  const settings = engineSettingsFrom(flags, io.env);
  const onWait = (text: string) => io.err(`${text}\n`);
  const shown = flags.quiet || flags.json ? null : progressLine(io.out, !!io.live);
  const onStage = (name: string, ms: number, note?: string) => { shown?.clear(); log(dim(`  ${name.padEnd(12)} ${ms.toFixed(0).padStart(6)} ms${note ? ` (${note})` : ''}`)); };
  // Nothing changed since the last build: its result, before the rest of the engine is even loaded.
  const { probeBuild } = await import('../src/pipeline/upToDate.ts');
  const outDir = path.resolve(root, flags.out ?? 'dist');
  const probed = await probeBuild(root, { outDir, drafts: flags.drafts, siteUrl: flags.siteUrl, env: io.env, settings, onWait });
  if (probed.result) onStage('up to date', probed.result.timings.total, 'nothing changed');
  // Commands import what they need when they run: `--help` and an unknown command load no site and no renderer.
  let result: BuildResult;
  const unhook = shown && io.live ? io.others?.(() => shown.clear()) : undefined;
  try {
    result = probed.result ?? await (await import('../src/pipeline/build.ts')).build({
      root, outDir: flags.out, siteUrl: flags.siteUrl, drafts: flags.drafts, settings, env: io.env, onWait, onStage, probe: probed.probe,
      ...(shown ? { onProgress: shown.update } : {}),
    });
  } finally { shown?.clear(); unhook?.(); } // (a build that throws leaves no half line before its error)
  const errLine = (s: string) => io.err(s + '\n');
  if (flags.json) io.out(jsonResult(result) + '\n');
  if (result.errors.length) {
    if (!flags.json) {
      // The warnings too: a stray file or a leftover key is as much to fix, and would surface only after the errors.
      if (!flags.quiet) printMessages(result.warnings, 'warning', errLine);
      printMessages(result.errors, 'error', errLine);
      const out = path.relative(io.cwd, result.outDir) || result.outDir;
      io.err(red(`✗ build failed with ${result.errors.length} error${result.errors.length > 1 ? 's' : ''}; ${fs.existsSync(result.outDir) ? `${out} was left as it was` : `nothing was written (${out} was not made)`}\n`));
    }
    return { code: 1, result };
  }
  if (!flags.json && !flags.quiet) {
    printMessages(result.warnings, 'warning', errLine);
    // Only when printed: the summary reads every page report, which a build found up to date parses
    // from its record only then (at 10,000 pages, a tenth of such a build's time).
    log(summary(result));
    if (flags.drafts) log(`${yellow('note')} built with --drafts: drafts are published in this output, so it is a preview; build without --drafts to deploy`);
  }
  return { code: 0, result };
}

export interface CheckFlags { root?: string; json?: boolean; drafts?: boolean; /** false: --no-typecheck */ typecheck?: boolean }

export async function runCheck(flags: CheckFlags, io: Io = terminal()): Promise<CommandRun> {
  const root = path.resolve(io.cwd, flags.root ?? '.');
  const { checkSite } = await import('../src/pipeline/build.ts');
  const shown = flags.json ? null : progressLine(io.out, !!io.live);
  const unhook = shown && io.live ? io.others?.(() => shown.clear()) : undefined;
  let result: BuildResult;
  try {
    result = await checkSite({ root, drafts: flags.drafts, settings: engineSettingsFrom({}, io.env), env: io.env, typecheck: flags.typecheck !== false, ...(shown ? { onProgress: shown.update, onStage: () => shown.clear() } : {}) });
  } finally { shown?.clear(); unhook?.(); }
  const typecheck = result.typecheck;
  if (!flags.json && typecheck && 'skipped' in typecheck) io.err(dim(`  ${typecheck.skipped}\n`));
  if (flags.json) io.out(jsonResult(result) + '\n');
  if (result.errors.length) {
    if (!flags.json) { printMessages(result.warnings, 'warning', (s) => io.err(s + '\n')); printMessages(result.errors, 'error', (s) => io.err(s + '\n')); io.err(red(`✗ ${result.errors.length} problem${result.errors.length > 1 ? 's' : ''} found\n`)); }
    return { code: 1, result };
  }
  if (!flags.json) printMessages(result.warnings, 'warning', (s) => io.err(s + '\n'));
  // (what the config and its plugins say of how they were set, as build prints it)
  if (!flags.json) for (const n of result.notices) io.out(`${yellow('note')} ${n}\n`);
  const typed = !typecheck || !('files' in typecheck) ? '' : typecheck.tsc !== undefined ? `, type-checked by tsc ${typecheck.tsc}` : `, ${typecheck.files} files type-checked`;
  if (!flags.json) io.out(`✓ content valid: ${count(result.pages, 'route')}, ${count(result.aliases, 'alias', 'aliases')}${typed} (${result.timings.total} ms)\n`);
  return { code: 0, result };
}
