// The in-process fixture API: a site (files given as an object, a copy of a tests/fixtures folder, or an
// existing folder) and the commands a user runs on it, `build`, `check` and `dev`, run in this process by
// the same code the CLI runs (cli/commands.ts, cli/dev.ts). Each result holds the engine's structured
// messages and the exact text the terminal would show (stdout, stderr, exit code), and a build its output
// files. Milliseconds per call where a spawned `sitegen` costs a second; tests of the CLI itself (argument
// parsing, exit of the process, --help) still spawn it through tests/helpers/cli.ts.
//
//   const site = await siteFrom({ 'content/pages/a.md': '# A' }, { base: 'basic' });
//   const r = await site.build();          // r.code, r.stdout, r.stderr, r.errors, r.output()
//   const dev = await site.dev();          // dev.url, dev.stdout(), await dev.close()
//   const p = await site.preview();        // p.url, p.siteUrl, await p.close()
//   site.remove();
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { BuildResult, Message } from '../../src/core/types.ts';
import { runBuild, runCheck, type BuildFlags, type Io } from '../../cli/commands.ts';
import { startDev } from '../../cli/dev.ts';
import { preview, type PreviewServer } from '../../src/server/preview.ts';
import { REPO, fixture } from './cli.ts';

export type SiteFiles = Record<string, string | Buffer>;

export interface RunOptions {
  /** Variables on top of process.env (and of the site's .env, which they override, as for the CLI). */
  env?: NodeJS.ProcessEnv;
}

export interface CommandResult {
  /** The exit code `sitegen` would end with. */
  code: number;
  /** What `sitegen` would print on standard output and standard error (no colours). */
  stdout: string;
  stderr: string;
  result: BuildResult;
  errors: Message[];
  warnings: Message[];
}

export interface BuildRun extends CommandResult {
  /** The output folder (absolute). */
  outDir: string;
  /** Every file of the output folder, path (with /) → text. */
  output(): Record<string, string>;
  /** One output file as text (throws when it does not exist). */
  read(rel: string): string;
}

export interface DevRun {
  /** The exit code when dev could not start (the server is then not running), else 0. */
  code: number;
  /** http://127.0.0.1:<port>, without a trailing slash. */
  url: string;
  stdout(): string;
  stderr(): string;
  /** Both, in the order they were written (what a terminal shows). */
  output(): string;
  close(): Promise<void>;
}

export interface TestSite {
  root: string;
  build(opts?: Omit<BuildFlags, 'root'> & RunOptions): Promise<BuildRun>;
  check(opts?: { json?: boolean; typecheck?: boolean } & RunOptions): Promise<CommandResult>;
  /** build() or check() by the command's name, for tests that run the same case through both. */
  run(command: string, opts?: RunOptions): Promise<CommandResult>;
  /** `sitegen dev` on 127.0.0.1, port 0; `backend` starts the site's server plugins (off by default). */
  dev(opts?: { backend?: boolean; cache?: boolean } & RunOptions): Promise<DevRun>;
  /** The engine's preview() of the built output on 127.0.0.1, port 0 (src/server/preview.ts); `backend` as for dev. */
  preview(opts?: { out?: string; backend?: boolean } & RunOptions): Promise<PreviewServer>;
  file(rel: string): string;
  write(rel: string, contents: string | Buffer): void;
  /** Rewrites a file; an edit that changes nothing is a test bug (the fixture moved on), so it throws. */
  edit(rel: string, change: (text: string) => string): void;
  /** Deletes the folder when the helper made it (a temp folder); an existing folder is left alone. */
  remove(): void;
}

/** The environment a command started from the repository with `env` would see: .env < process.env < env. */
function commandEnv(root: string, env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  let dotenv: NodeJS.ProcessEnv = {};
  const file = path.join(root, '.env');
  if (fs.existsSync(file)) dotenv = parseEnv(fs.readFileSync(file, 'utf8')) as NodeJS.ProcessEnv;
  const merged: NodeJS.ProcessEnv = { ...dotenv, ...process.env, NO_COLOR: '1', ...env };
  // A child process cannot receive an undefined variable; `{ X: undefined }` means "not set" here too.
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  return merged;
}

function capture(root: string, env: NodeJS.ProcessEnv | undefined): { io: Io; stdout: () => string; stderr: () => string; output: () => string } {
  let stdout = '', stderr = '', output = '';
  return {
    io: { out: (s) => { stdout += s; output += s; }, err: (s) => { stderr += s; output += s; }, env: commandEnv(root, env), cwd: REPO },
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
  };
}

/** Every file below `dir`, path (with /) → text. */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

function writeFiles(root: string, files: SiteFiles): void {
  for (const [rel, contents] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, contents);
  }
}

function testSite(root: string, owned: boolean): TestSite {
  return {
    root,
    async build(opts = {}) {
      const { env, ...flags } = opts;
      const c = capture(root, env);
      const { code, result } = await runBuild({ ...flags, root }, c.io);
      const outDir = result.outDir;
      return {
        code, stdout: c.stdout(), stderr: c.stderr(), result, errors: result.errors, warnings: result.warnings, outDir,
        output: () => readTree(outDir),
        read: (rel) => fs.readFileSync(path.join(outDir, rel), 'utf8'),
      };
    },
    async check(opts = {}) {
      const { env, ...flags } = opts;
      const c = capture(root, env);
      const { code, result } = await runCheck({ ...flags, root }, c.io);
      return { code, stdout: c.stdout(), stderr: c.stderr(), result, errors: result.errors, warnings: result.warnings };
    },
    run(command, opts = {}) {
      if (command === 'build') return this.build(opts);
      if (command === 'check') return this.check(opts);
      throw new Error(`run: ${command} is not build or check`);
    },
    async dev(opts = {}) {
      const c = capture(root, opts.env);
      const started = await startDev({ root, port: 0, host: '127.0.0.1', backend: opts.backend ?? false, cache: opts.cache }, c.io);
      return {
        code: started.code, url: started.dev?.url ?? '', stdout: c.stdout, stderr: c.stderr, output: c.output,
        close: async () => { await started.dev?.close(); },
      };
    },
    preview(opts = {}) {
      return preview({ root, outDir: opts.out, port: 0, host: '127.0.0.1', backend: opts.backend ?? false, env: commandEnv(root, opts.env) });
    },
    file: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    write: (rel, contents) => writeFiles(root, { [rel]: contents }),
    edit(rel, change) {
      const file = path.join(root, rel);
      const before = fs.readFileSync(file, 'utf8');
      const after = change(before);
      if (after === before) throw new Error(`edit: the edit of ${rel} changed nothing (does the text it replaces still exist?)`);
      fs.writeFileSync(file, after);
    },
    remove() { if (owned && root.startsWith(os.tmpdir())) fs.rmSync(root, { recursive: true, force: true }); },
  };
}

/**
 * A site in a new temp folder: a copy of tests/fixtures/<base> (without its dist/ and caches) when `base`
 * is given, with `files` written over it. `beside` copies other fixtures next to it, for a fixture that
 * links to or imports from a sibling (broken-link uses ../basic). The repository's node_modules is linked
 * in, so the site's imports (react, zod) resolve as in a real project. `under` is the folder the temp
 * folder is made in (os.tmpdir() unless given; tests/helpers/scratch.ts has a faster one).
 */
export async function siteFrom(files: SiteFiles = {}, opts: { base?: string; beside?: string[]; under?: string } = {}): Promise<TestSite> {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(opts.under ?? os.tmpdir(), 'sitegen-site-')));
  const copy = (name: string, to: string) => {
    const from = fixture(name);
    fs.cpSync(from, to, { recursive: true, filter: (src) => !/(^|[\\/])(dist|\.sitegen|node_modules)([\\/]|$)/.test(path.relative(from, src)) });
  };
  let root = work;
  if (opts.base !== undefined) {
    root = path.join(work, opts.base);
    copy(opts.base, root);
    for (const name of opts.beside ?? []) copy(name, path.join(work, name));
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  writeFiles(root, files);
  const site = testSite(root, true);
  // The whole temp folder goes, siblings included.
  return { ...site, remove: () => fs.rmSync(work, { recursive: true, force: true }) };
}

/** A throwaway copy of tests/fixtures/<name>, with `files` written over it (see siteFrom for `beside` and `under`). */
export function copyOf(name: string, files: SiteFiles = {}, opts: { beside?: string[]; under?: string } = {}): Promise<TestSite> {
  return siteFrom(files, { base: name, ...opts });
}

/** An existing site folder (a fixture as committed, or one a test prepared), used in place. */
export function siteAt(root: string): TestSite {
  return testSite(path.resolve(root), false);
}
